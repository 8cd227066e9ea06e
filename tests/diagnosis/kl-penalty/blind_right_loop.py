# expect: right
# framework: torch
# style: a loop over minibatches, the paper's rule after it
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("inputs must be [M, N] of one shape")
    if new_logp.numel() == 0:
        raise ValueError("empty inputs")
    if not kl_target > 0 or beta < 0:
        raise ValueError("kl_target must be > 0 and beta >= 0")

    losses = []
    for m in range(new_logp.shape[0]):
        ratio = torch.exp(new_logp[m] - old_logp[m].detach())
        losses.append(-(ratio * advantages[m].detach()).mean() + beta * kl[m].mean())
    d = kl.detach().mean().item()
    new_beta = beta
    if d < kl_target / 1.5:
        new_beta = beta / 2
    elif d > kl_target * 1.5:
        new_beta = beta * 2
    return torch.stack(losses), new_beta

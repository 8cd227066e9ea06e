# expect: klpen-new-beta-in-loss
# framework: torch
# style: loop over minibatches with the beta decided up front
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    d = float(kl.detach().mean())
    factor = 2.0 if d > 1.5 * kl_target else (0.5 if d < kl_target / 1.5 else 1.0)
    beta = beta * factor
    losses = []
    for m in range(kl.shape[0]):
        ratio = torch.exp(new_logp[m] - old_logp[m].detach())
        losses.append(-(ratio * advantages[m].detach()).mean() + beta * kl[m].mean())
    return torch.stack(losses), beta

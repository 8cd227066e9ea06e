# expect: right
# framework: torch
# style: loop over minibatches, lists then stack, paper's rule after the loop
import torch


def _validate(new_logp, old_logp, advantages, kl, beta, kl_target):
    shapes = {tuple(t.shape) for t in (new_logp, old_logp, advantages, kl)}
    if len(shapes) != 1 or new_logp.dim() != 2:
        raise ValueError("inputs must be [M, N] tensors of one shape")
    if new_logp.numel() == 0:
        raise ValueError("empty inputs")
    if kl_target <= 0:
        raise ValueError("kl_target must be positive")
    if beta < 0:
        raise ValueError("beta must be >= 0")

def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    _validate(new_logp, old_logp, advantages, kl, beta, kl_target)
    old = old_logp.detach()
    adv = advantages.detach()
    losses = []
    for m in range(new_logp.shape[0]):
        ratio = torch.exp(new_logp[m] - old[m])
        losses.append(-(ratio * adv[m]).mean() + beta * kl[m].mean())
    d = kl.detach().mean().item()
    if d < kl_target / 1.5:
        new_beta = beta / 2
    elif d > kl_target * 1.5:
        new_beta = beta * 2
    else:
        new_beta = beta
    return torch.stack(losses), new_beta

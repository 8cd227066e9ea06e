# expect: right
# framework: torch
# style: per-row means at once
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("inputs must be [M, N] of one shape")
    if new_logp.numel() == 0:
        raise ValueError("empty inputs")
    if not kl_target > 0 or beta < 0:
        raise ValueError("kl_target must be > 0 and beta >= 0")

    ratio = (new_logp - old_logp.detach()).exp()
    losses = -(ratio * advantages.detach()).mean(dim=1) + beta * kl.mean(dim=1)
    d = float(kl.detach().mean())
    if d > 1.5 * kl_target:
        beta = beta * 2.0
    elif d < kl_target / 1.5:
        beta = beta * 0.5
    return losses, beta

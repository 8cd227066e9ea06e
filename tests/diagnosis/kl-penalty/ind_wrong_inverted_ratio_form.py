# expect: klpen-update-inverted
# framework: torch
# style: the two multiplications 0.5 and 2.0 written on the wrong branches
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
    ratio = (new_logp - old_logp.detach()).exp()
    losses = -(ratio * advantages.detach()).mean(-1) + beta * kl.mean(-1)
    d = float(kl.detach().mean())
    if d > 1.5 * kl_target:
        new_beta = beta * 0.5
    elif d < kl_target / 1.5:
        new_beta = beta * 2.0
    else:
        new_beta = beta
    return losses, new_beta

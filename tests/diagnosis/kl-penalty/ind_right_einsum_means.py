# expect: right
# framework: torch
# style: einsum row means, torch.where-free branchless update
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
    M, N = new_logp.shape
    ratio = torch.exp(new_logp - old_logp.detach())
    surr = torch.einsum("mn,mn->m", ratio, advantages.detach()) / N
    pen = torch.einsum("mn->m", kl) / N
    d = kl.detach().mean().item()
    up = d > 1.5 * kl_target
    down = d < kl_target / 1.5
    new_beta = beta * (2.0 ** (int(up) - int(down)))
    return beta * pen - surr, new_beta

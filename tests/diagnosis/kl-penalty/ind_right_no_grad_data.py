# expect: right
# framework: torch
# style: data converted under no_grad first, sum / N means
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
    with torch.no_grad():
        old = old_logp.clone()
        A = advantages.clone()
    N = new_logp.shape[1]
    log_ratio = new_logp - old
    pg = (log_ratio.exp() * A).sum(-1) / N
    pen = kl.sum(-1) / N
    losses = beta * pen - pg
    with torch.no_grad():
        d = kl.sum() / kl.numel()
    if d > 1.5 * kl_target:
        beta = beta * 2
    elif d < kl_target / 1.5:
        beta = beta / 2
    return losses, beta

# expect: right
# framework: torch
# style: helpers for the surrogate and the update, float beta
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
    def surrogate(lp, olp, adv):
        return (torch.exp(lp - olp) * adv).mean(-1)

    def adapt(b, d, target):
        if d > target * 1.5:
            return b * 2.0
        if d < target / 1.5:
            return b / 2.0
        return b

    losses = beta * kl.mean(-1) - surrogate(new_logp, old_logp.detach(), advantages.detach())
    return losses, adapt(beta, kl.detach().mean().item(), kl_target)

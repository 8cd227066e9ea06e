# expect: strict-comparison
# framework: torch
# style: only the halving comparison not strict, a helper
import torch


def _next_beta(beta, d, target):
    if d > target * 1.5:
        return beta * 2.0
    if d <= target / 1.5:
        return beta * 0.5
    return beta


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0:
        raise ValueError("empty")
    if not kl_target > 0 or beta < 0:
        raise ValueError("kl_target / beta")
    r = torch.exp(new_logp - old_logp.detach())
    losses = -(r * advantages.detach()).mean(-1) + beta * kl.mean(-1)
    return losses, _next_beta(beta, kl.detach().mean().item(), kl_target)

# expect: klpen-new-beta-in-loss
# framework: torch
# style: beta adapted before the losses
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    d = kl.detach().mean().item()
    if d > 1.5 * kl_target:
        beta = beta * 2
    elif d < kl_target / 1.5:
        beta = beta / 2
    ratio = torch.exp(new_logp - old_logp.detach())
    losses = -(ratio * advantages.detach()).mean(-1) + beta * kl.mean(-1)
    return losses, beta

# expect: klpen-penalty-sign
# framework: torch
# style: per-sample loss then mean
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    ratio = torch.exp(new_logp - old_logp.detach())
    adv = advantages.detach()
    losses = (-(ratio * adv) - beta * kl).mean(dim=1)
    d = kl.detach().mean().item()
    if d > 1.5 * kl_target:
        beta_next = beta * 2
    elif d < kl_target / 1.5:
        beta_next = beta / 2
    else:
        beta_next = beta
    return losses, beta_next

# expect: klpen-update-inverted
# framework: torch
# style: lookup table of factors by regime
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    ratio = torch.exp(new_logp - old_logp.detach())
    adv = advantages.detach()
    losses = -(ratio * adv).mean(-1) + beta * kl.mean(-1)
    d = kl.detach().mean().item()
    regime = "high" if d > kl_target * 1.5 else ("low" if d < kl_target / 1.5 else "ok")
    beta_next = beta * {"high": 0.5, "low": 2.0, "ok": 1.0}[regime]
    return losses, beta_next

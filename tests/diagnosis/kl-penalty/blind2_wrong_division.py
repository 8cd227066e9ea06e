# expect: ratio-division
# framework: torch
# style: probabilities divided
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0:
        raise ValueError("empty")
    if not kl_target > 0 or beta < 0:
        raise ValueError("kl_target / beta")
    r = new_logp.exp() / old_logp.detach().exp()
    losses = -(r * advantages.detach()).mean(-1) + beta * kl.mean(-1)
    d = kl.detach().mean().item()
    new_beta = beta * 2 if d > 1.5 * kl_target else (beta / 2 if d < kl_target / 1.5 else beta)
    return losses, new_beta

# expect: klpen-new-beta-in-loss
# framework: torch
# style: helper returns the next beta, used right away
import torch


def _next_beta(beta, d, target):
    return beta * 2 if d > 1.5 * target else (beta / 2 if d < target / 1.5 else beta)


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    beta_now = _next_beta(beta, kl.detach().mean().item(), kl_target)
    surr = (torch.exp(new_logp - old_logp.detach()) * advantages.detach()).mean(1)
    return beta_now * kl.mean(1) - surr, beta_now

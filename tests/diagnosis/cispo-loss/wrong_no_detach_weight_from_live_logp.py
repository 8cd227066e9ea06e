# expect: cispo-weight-not-detached
# framework: torch
# style: only old_log_prob detached, the importance weight built from the live log-probs
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0:
        raise ValueError("eps_high")
    if eps_low is not None and not 0 < eps_low <= 1:
        raise ValueError("eps_low")
    zeros = torch.zeros_like(log_prob)
    lp = torch.where(response_mask, log_prob, zeros)
    ref = torch.where(response_mask, old_log_prob.detach(), zeros)
    a = torch.where(response_mask, advantages.detach(), zeros)
    is_weight = (lp - ref).exp()
    upper = torch.full_like(is_weight, 1.0 + eps_high)
    is_weight = torch.minimum(is_weight, upper)
    if eps_low is not None:
        is_weight = torch.maximum(is_weight, torch.full_like(is_weight, 1.0 - eps_low))
    is_weight = torch.where(response_mask, is_weight, zeros)
    total = -(is_weight * a * lp).sum()
    return total / response_mask.sum(), is_weight

# expect: cispo-padding-counted
# framework: torch
# style: .mean() over the whole [B, T] grid after zeroing the padding
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    z = torch.zeros_like(log_prob)
    lp = torch.where(response_mask, log_prob, z)
    old = torch.where(response_mask, old_log_prob.detach(), z)
    adv = torch.where(response_mask, advantages.detach(), z)
    w = torch.exp(lp - old).detach()
    w = torch.clamp(w, max=1 + eps_high)
    if eps_low is not None:
        w = torch.clamp(w, min=1 - eps_low)
    w = torch.where(response_mask, w, z)
    return -(w * adv * lp).mean(), w

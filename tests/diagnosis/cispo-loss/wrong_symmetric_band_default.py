# expect: cispo-symmetric-floor
# framework: torch
# style: a PPO habit, the band taken symmetric when no eps_low is given
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    low = eps_high if eps_low is None else eps_low
    mask = response_mask
    lp = log_prob.masked_fill(~mask, 0.0)
    old = old_log_prob.detach().masked_fill(~mask, 0.0)
    a = advantages.detach().masked_fill(~mask, 0.0)
    w = torch.exp(lp - old).detach().clamp(1 - low, 1 + eps_high).masked_fill(~mask, 0.0)
    return -(w * a * lp).sum() / mask.sum(), w

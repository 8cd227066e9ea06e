# expect: cispo-ppo-clip
# framework: torch
# style: the PPO clipped surrogate with the CISPO band, weights reported as the clamped ratio
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    m = response_mask
    z = torch.zeros_like(log_prob)
    lp = torch.where(m, log_prob, z)
    old = torch.where(m, old_log_prob.detach(), z)
    adv = torch.where(m, advantages.detach(), z)
    ratio = torch.exp(lp - old)
    lo = 0.0 if eps_low is None else 1.0 - eps_low
    clipped = ratio.clamp(lo, 1.0 + eps_high)
    surrogate = torch.minimum(ratio * adv, clipped * adv)
    loss = -torch.where(m, surrogate, z).sum() / m.sum()
    return loss, torch.where(m, clipped.detach(), z)

# expect: cispo-ppo-clip
# framework: torch
# style: CISPO's weighted log-prob, but tokens whose ratio left the band (in the advantage's direction) dropped
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    m = response_mask
    z = torch.zeros_like(log_prob)
    lp = torch.where(m, log_prob, z)
    a = torch.where(m, advantages.detach(), z)
    r = torch.exp(lp.detach() - torch.where(m, old_log_prob.detach(), z))
    w = r.clamp(max=1 + eps_high)
    if eps_low is not None:
        w = w.clamp(min=1 - eps_low)
    w = torch.where(m, w, z)
    too_high = (r > 1 + eps_high) & (a > 0)
    too_low = (eps_low is not None) & (r < 1 - (eps_low or 0.0)) & (a < 0)
    keep = m & ~too_high & ~too_low
    loss = -torch.where(keep, w * a * lp, z).sum() / m.sum()
    return loss, w

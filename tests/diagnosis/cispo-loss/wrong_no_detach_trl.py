# expect: cispo-weight-not-detached
# framework: torch
# style: TRL-like, the clamp kept in the graph
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    pad = ~response_mask
    logps = log_prob.masked_fill(pad, 0.0)
    old = old_log_prob.detach().masked_fill(pad, 0.0)
    adv = advantages.detach().masked_fill(pad, 0.0)
    coef = torch.exp(logps - old)
    clamped = torch.clamp(coef, max=1 + eps_high)
    if eps_low is not None:
        clamped = torch.clamp(clamped, min=1 - eps_low)
    clamped = clamped.masked_fill(pad, 0.0)
    loss = (-clamped * adv * logps).sum() / response_mask.sum()
    return loss, clamped.detach()

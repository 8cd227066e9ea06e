# expect: cispo-weight-unclipped
# framework: torch
# style: REINFORCE with the plain detached importance ratio, eps_low honoured only as a floor
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    mask = response_mask
    lp = torch.where(mask, log_prob, torch.zeros_like(log_prob))
    log_w = torch.where(mask, log_prob - old_log_prob, torch.zeros_like(log_prob)).detach()
    w = log_w.exp()
    if eps_low is not None:
        w = w.clamp(min=1 - eps_low)
    w = torch.where(mask, w, torch.zeros_like(w))
    a = torch.where(mask, advantages.detach(), torch.zeros_like(w))
    return -(w * a * lp).sum() / mask.sum(), w

# expect: cispo-mask-multiplied
# framework: torch
# style: a float mask multiplied into every input
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    m = response_mask.float().to(log_prob.dtype)
    lp = log_prob * m
    old = old_log_prob.detach() * m
    adv = advantages.detach() * m
    w = torch.exp(lp - old).detach().clamp(max=1 + eps_high)
    if eps_low is not None:
        w = w.clamp(min=1 - eps_low)
    w = torch.where(response_mask, w, torch.zeros_like(w))
    return -(w * adv * lp).sum() / m.sum(), w

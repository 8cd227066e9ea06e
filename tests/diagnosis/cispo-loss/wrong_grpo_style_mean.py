# expect: cispo-per-response-mean
# framework: torch
# style: GRPO's 1/G sum_i 1/|o_i| sum_t aggregation
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    m = response_mask.to(log_prob.dtype)
    lp = torch.where(response_mask, log_prob, torch.zeros_like(log_prob))
    old = torch.where(response_mask, old_log_prob, torch.zeros_like(log_prob)).detach()
    adv = torch.where(response_mask, advantages, torch.zeros_like(log_prob)).detach()
    with torch.no_grad():
        w = torch.exp(lp - old).clamp(max=1 + eps_high)
        if eps_low is not None:
            w = w.clamp(min=1 - eps_low)
        w = w * m
    per_seq = (w * adv * lp).sum(-1) / m.sum(-1)
    return -per_seq.mean(), w

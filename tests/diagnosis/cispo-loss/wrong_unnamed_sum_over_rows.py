# expect:
# expect-unnamed: the loss summed over tokens and averaged over responses
# framework: torch
# style: seq-mean-token-sum aggregation
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("bad range")
    z = torch.zeros_like(log_prob)
    lp = torch.where(response_mask, log_prob, z)
    w = torch.exp(lp.detach() - torch.where(response_mask, old_log_prob.detach(), z)).clamp(max=1 + eps_high)
    if eps_low is not None:
        w = w.clamp(min=1 - eps_low)
    w = torch.where(response_mask, w, z)
    a = torch.where(response_mask, advantages.detach(), z)
    return -(w * a * lp).sum(dim=-1).mean(), w

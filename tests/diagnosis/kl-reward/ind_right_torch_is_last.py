# expect: right
# framework: torch
# style: boolean "is last token" mask from the next column, torch.where piecewise
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask
    nxt = torch.cat([m[:, 1:], torch.zeros_like(m[:, :1])], dim=1)
    is_last = m & ~nxt
    kl = torch.where(m, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    r = -kl_coef * kl + torch.where(is_last, scores[:, None].to(log_probs.dtype), torch.zeros_like(log_probs))
    return torch.where(m, r, torch.zeros_like(r))

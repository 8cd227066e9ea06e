# expect: reward-score-first-padding
# framework: torch
# style: first padding slot found with argmax of ~mask, full rows sent to the end
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = response_mask.shape
    first_pad = (~response_mask).long().argmax(dim=1)
    full = response_mask.all(dim=1)
    pos = torch.where(full, torch.full_like(first_pad, T - 1), first_pad)
    score_grid = torch.zeros_like(log_probs).scatter(1, pos[:, None], scores[:, None].to(log_probs.dtype))
    kl = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    return score_grid - kl_coef * kl

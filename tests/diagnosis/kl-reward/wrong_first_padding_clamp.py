# expect: reward-score-first-padding
# style: lengths clamped to T - 1
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    base = (-kl_coef * (log_probs - ref_log_probs)).masked_fill(~response_mask, 0.0)
    lengths = response_mask.long().sum(dim=-1)
    pos = torch.clamp(lengths, max=T - 1)
    bonus = torch.zeros_like(base)
    bonus[torch.arange(B), pos] = scores.to(base.dtype)
    return base + bonus

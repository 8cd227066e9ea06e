# expect: reward-score-every-token
# style: scores times mask added
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask.to(log_probs.dtype)
    kl = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    return -kl_coef * kl + scores.unsqueeze(-1) * m

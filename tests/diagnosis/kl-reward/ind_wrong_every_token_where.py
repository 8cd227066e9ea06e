# expect: reward-score-every-token
# framework: torch
# style: torch.where with the score expanded over the mask
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    score_grid = scores.to(log_probs.dtype).unsqueeze(-1).expand_as(log_probs)
    kl_term = -kl_coef * torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    return torch.where(response_mask, score_grid + kl_term, torch.zeros_like(kl_term))

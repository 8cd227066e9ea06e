# expect: right
# framework: torch
# style: verl: token_level_scores at valid_length - 1, then apply_kl_penalty with k1
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = response_mask.shape
    valid_length = response_mask.sum(-1)
    token_level_scores = torch.zeros((B, T), dtype=log_probs.dtype)
    token_level_scores[torch.arange(B), valid_length - 1] = scores.to(log_probs.dtype)
    kld = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros((), dtype=log_probs.dtype))
    token_level_rewards = token_level_scores - kl_coef * kld
    return torch.where(response_mask, token_level_rewards, torch.zeros((), dtype=log_probs.dtype))

# expect:
# expect-unnamed: sequence-level KL (summed over the response) subtracted at the last token only
# framework: torch
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B = log_probs.shape[0]
    kl = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    seq_kl = kl.sum(-1)
    rewards = torch.zeros_like(log_probs)
    last = response_mask.sum(-1) - 1
    rewards[torch.arange(B), last] = scores.to(rewards.dtype) - kl_coef * seq_kl
    return rewards

# expect: right
# framework: torch
# style: OpenRLHF's compute_reward (eos index from the flipped mask, scatter_add)
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    kl_reward = -kl_coef * kl
    eos_indices = response_mask.size(1) - 1 - response_mask.long().fliplr().argmax(dim=1, keepdim=True)
    last_reward = torch.zeros_like(kl).scatter_(dim=1, index=eos_indices, src=scores.unsqueeze(1).to(kl.dtype))
    return last_reward + kl_reward

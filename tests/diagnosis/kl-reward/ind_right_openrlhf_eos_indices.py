# expect: right
# framework: torch
# style: OpenRLHF compute_reward: eos index from fliplr().argmax, scatter the score, add the KL reward
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    action_mask = response_mask
    kl = (log_probs - ref_log_probs).masked_fill(~action_mask, 0.0)
    kl_reward = -kl_coef * kl
    eos_indices = action_mask.size(1) - 1 - action_mask.long().fliplr().argmax(dim=1, keepdim=True)
    last_reward = torch.zeros_like(kl).scatter_(dim=1, index=eos_indices, src=scores.unsqueeze(1).to(kl.dtype))
    reward = last_reward + kl_reward
    return reward.masked_fill(~action_mask, 0.0)

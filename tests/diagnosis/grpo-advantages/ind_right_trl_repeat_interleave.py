# expect: right
# framework: torch
# style: TRL GRPOTrainer: grouped mean/std repeated with repeat_interleave, scale_rewards flag
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size != 0:
        raise ValueError("scores must split into groups of group_size")
    rewards = scores
    mean_grouped_rewards = rewards.view(-1, group_size).mean(dim=1)
    mean_grouped_rewards = mean_grouped_rewards.repeat_interleave(group_size, dim=0)
    advantages = rewards - mean_grouped_rewards
    if norm_by_std and group_size > 1:
        std_grouped_rewards = rewards.view(-1, group_size).std(dim=1)
        std_grouped_rewards = std_grouped_rewards.repeat_interleave(group_size, dim=0)
        advantages = advantages / (std_grouped_rewards + eps)
    advantages = advantages.unsqueeze(1).expand_as(response_mask)
    return torch.where(response_mask, advantages, torch.zeros_like(advantages))

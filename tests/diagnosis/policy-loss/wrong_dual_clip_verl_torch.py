# expect: policy-dual-clip
# framework: torch
# style: verl compute_policy_loss_vanilla with clip_ratio_c = 3 (dual clip on for A < 0)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    clip_ratio_c = 3.0
    advantages = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    pg_losses1 = -advantages * ratio
    pg_losses2 = -advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    pg_losses3 = -advantages * clip_ratio_c
    clip_pg_losses2 = torch.min(pg_losses3, clip_pg_losses1)
    pg_losses = torch.where(advantages < 0, clip_pg_losses2, clip_pg_losses1)
    return pg_losses.mean()

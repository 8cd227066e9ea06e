# expect: right
# framework: torch
# style: verl compute_policy_loss_vanilla: clamped log-ratio, pg_losses max, masked_mean over an all-ones mask
import torch


def masked_mean(values, mask, axis=None):
    return (values * mask).sum(axis=axis) / (mask.sum(axis=axis) + 1e-8)


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    old_log_prob = old_logp.detach()
    advantages = advantages.detach()
    response_mask = torch.ones_like(new_logp)
    negative_approx_kl = torch.clamp(new_logp - old_log_prob, min=-20.0, max=20.0)
    ratio = torch.exp(negative_approx_kl)
    pg_losses1 = -advantages * ratio
    pg_losses2 = -advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    return masked_mean(clip_pg_losses1, response_mask)

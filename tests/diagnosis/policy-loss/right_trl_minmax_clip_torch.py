# expect: right
# framework: torch
# style: TRL: clip written as torch.max(torch.min(x, hi), lo), pg_losses max, masked_mean helper
import torch


def clip_by_value(x, tensor_min, tensor_max):
    return torch.max(torch.min(x, tensor_max), tensor_min)


def masked_mean(values, mask):
    return (values * mask).sum() / mask.sum()


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    logprobs_diff = new_logp - old_logp.detach()
    ratio = torch.exp(logprobs_diff)
    mb_advantage = advantages.detach()
    lo = torch.full_like(ratio, 1.0 - clip_eps)
    hi = torch.full_like(ratio, 1.0 + clip_eps)
    pg_losses = -mb_advantage * ratio
    pg_losses2 = -mb_advantage * clip_by_value(ratio, lo, hi)
    pg_loss_max = torch.max(pg_losses, pg_losses2)
    return masked_mean(pg_loss_max, torch.ones_like(pg_loss_max))

# expect: policy-advantages-normalised
# framework: torch
# style: CleanRL norm_adv inside the loss: (A - mean) / (std + 1e-8), torch unbiased std
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    mb_advantages = advantages.detach()
    mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
    ratio = (new_logp - old_logp.detach()).exp()
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return torch.max(pg_loss1, pg_loss2).mean()

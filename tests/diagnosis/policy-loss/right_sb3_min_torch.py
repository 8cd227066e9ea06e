# expect: right
# framework: torch
# style: Stable-Baselines3: -th.min(advantages * ratio, advantages * clamp(ratio)).mean()
import torch as th


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    advantages = advantages.detach()
    ratio = th.exp(new_logp - old_logp.detach())
    policy_loss_1 = advantages * ratio
    policy_loss_2 = advantages * th.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    policy_loss = -th.min(policy_loss_1, policy_loss_2).mean()
    return policy_loss

# expect: grad-into-advantages
# framework: torch
# style: SB3-like, old_logp detached, advantages used as they arrive
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp.detach())
    policy_loss_1 = advantages * ratio
    policy_loss_2 = advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return -torch.min(policy_loss_1, policy_loss_2).mean()

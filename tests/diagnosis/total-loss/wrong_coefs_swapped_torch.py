# expect: total-coefs-swapped
# framework: torch
# style: ent_coef on the value loss, vf_coef on the entropy
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    adv = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    policy_loss = -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv).mean()
    old, ret = old_values.detach(), returns.detach()
    v_clip = old + torch.clamp(values - old, -clip_eps, clip_eps)
    value_loss = 0.5 * torch.max((values - ret) ** 2, (v_clip - ret) ** 2).mean()
    return policy_loss + ent_coef * value_loss - vf_coef * entropy.mean()

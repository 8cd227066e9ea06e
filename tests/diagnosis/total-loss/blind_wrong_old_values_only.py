# expect: grad-into-old-values
# framework: torch
# style: the value clip's anchor attached
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = torch.exp(new_logp - old_logp.detach())
    adv = advantages.detach()
    policy = -torch.min(ratio * adv, ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv).mean()
    ret = returns.detach()
    vc = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
    value = 0.5 * torch.max((values - ret) ** 2, (vc - ret) ** 2).mean()
    return policy + vf_coef * value - ent_coef * entropy.mean()

# expect: total-value-sign
# framework: torch
# style: value loss subtracted like the entropy bonus
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    a = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    pg = -torch.min(ratio * a, ratio.clamp(1 - clip_eps, 1 + clip_eps) * a).mean()
    old, R = old_values.detach(), returns.detach()
    vclip = old + (values - old).clamp(-clip_eps, clip_eps)
    vf = 0.5 * torch.max((values - R) ** 2, (vclip - R) ** 2).mean()
    return pg - vf_coef * vf - ent_coef * entropy.mean()

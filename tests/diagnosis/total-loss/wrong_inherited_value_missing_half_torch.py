# expect: value-missing-half
# framework: torch
# style: verl-regression style value term without the 0.5
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    a = advantages.detach()
    r = torch.exp(new_logp - old_logp.detach())
    pg = torch.maximum(-a * r, -a * r.clamp(1 - clip_eps, 1 + clip_eps)).mean()
    vo, R = old_values.detach(), returns.detach()
    vclip = torch.clamp(values, vo - clip_eps, vo + clip_eps)
    vf = torch.maximum((values - R) ** 2, (vclip - R) ** 2).mean()
    return pg + vf_coef * vf - ent_coef * entropy.mean()

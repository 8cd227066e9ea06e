# expect: value-abs-error
# framework: torch
# style: L1 critic errors inside the total
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    a = advantages.detach()
    r = (new_logp - old_logp.detach()).exp()
    pg = torch.max(-a * r, -a * torch.clamp(r, 1 - clip_eps, 1 + clip_eps)).mean()
    vo, R = old_values.detach(), returns.detach()
    vc = vo + torch.clamp(values - vo, -clip_eps, clip_eps)
    vf = 0.5 * torch.max((values - R).abs(), (vc - R).abs()).mean()
    return pg + vf_coef * vf - ent_coef * entropy.mean()

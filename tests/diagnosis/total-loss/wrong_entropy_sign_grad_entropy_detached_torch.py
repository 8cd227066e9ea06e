# expect: entropy-sign
# expect-unnamed: entropy detached, so the bonus sends no gradient
# framework: torch
# style: entropy treated as a logged metric: detached and added
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    a = advantages.detach()
    r = (new_logp - old_logp.detach()).exp()
    pg = -torch.min(r * a, r.clamp(1 - clip_eps, 1 + clip_eps) * a).mean()
    vo, R = old_values.detach(), returns.detach()
    vc = vo + (values - vo).clamp(-clip_eps, clip_eps)
    vf = 0.5 * torch.max((values - R) ** 2, (vc - R) ** 2).mean()
    return pg + vf_coef * vf + ent_coef * entropy.detach().mean()

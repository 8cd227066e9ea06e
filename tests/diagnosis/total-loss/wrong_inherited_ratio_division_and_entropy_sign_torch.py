# expect: ratio-division entropy-sign
# framework: torch
# style: probabilities divided and the entropy added
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = new_logp.exp() / old_logp.detach().exp()
    a = advantages.detach()
    pg = -torch.min(ratio * a, ratio.clamp(1 - clip_eps, 1 + clip_eps) * a).mean()
    vo, R = old_values.detach(), returns.detach()
    vc = vo + (values - vo).clamp(-clip_eps, clip_eps)
    vf = 0.5 * torch.max((values - R) ** 2, (vc - R) ** 2).mean()
    return pg + vf_coef * vf + ent_coef * entropy.mean()

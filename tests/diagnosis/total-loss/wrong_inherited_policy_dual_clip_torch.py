# expect: policy-dual-clip
# framework: torch
# style: verl-like policy term with dual clip (c = 3) inside the total
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    A = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    pg1 = -A * ratio
    pg2 = -A * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    clip1 = torch.maximum(pg1, pg2)
    clip2 = torch.min(-A * 3.0, clip1)
    pg = torch.where(A < 0, clip2, clip1).mean()
    vo, R = old_values.detach(), returns.detach()
    vc = vo + torch.clamp(values - vo, -clip_eps, clip_eps)
    vf = 0.5 * torch.maximum((values - R) ** 2, (vc - R) ** 2).mean()
    return pg + vf_coef * vf - ent_coef * entropy.mean()

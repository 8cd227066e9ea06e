# expect: right
# framework: torch
# style: torch.where piecewise policy objective, clamp-with-tensor-bounds value clip
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    adv = advantages.detach()
    r = torch.exp(new_logp - old_logp.detach())
    surrogate = torch.where(adv >= 0, torch.clamp(r, max=1 + clip_eps) * adv, torch.clamp(r, min=1 - clip_eps) * adv)
    policy = -surrogate.mean()
    v_old = old_values.detach()
    ret = returns.detach()
    v_clip = torch.clamp(values, v_old - clip_eps, v_old + clip_eps)
    value = 0.5 * torch.max(torch.square(values - ret), torch.square(v_clip - ret)).mean()
    bonus = entropy.mean()
    return policy + vf_coef * value - ent_coef * bonus

# expect: policy-missing-negation
# framework: torch
# style: the surrogate objective added as if it were a loss
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    a = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    surrogate = torch.min(ratio * a, ratio.clamp(1 - clip_eps, 1 + clip_eps) * a).mean()
    vo, R = old_values.detach(), returns.detach()
    vc = vo + (values - vo).clamp(-clip_eps, clip_eps)
    value_loss = 0.5 * torch.max((values - R) ** 2, (vc - R) ** 2).mean()
    return surrogate + vf_coef * value_loss - ent_coef * entropy.mean()

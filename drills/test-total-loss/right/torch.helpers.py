import torch


def _policy(new_logp, old_logp, advantages, eps):
    ratio = torch.exp(new_logp - old_logp.detach())
    a = advantages.detach()
    return -torch.min(ratio * a, ratio.clamp(1 - eps, 1 + eps) * a).mean()


def _value(values, old_values, returns, eps):
    old, r = old_values.detach(), returns.detach()
    clipped = old + (values - old).clamp(-eps, eps)
    return 0.5 * torch.max((values - r) ** 2, (clipped - r) ** 2).mean()


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    return (_policy(new_logp, old_logp, advantages, clip_eps)
            + vf_coef * _value(values, old_values, returns, clip_eps)
            - ent_coef * entropy.mean())

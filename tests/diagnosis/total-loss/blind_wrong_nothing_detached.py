# expect: grad-into-old-logp grad-into-advantages grad-into-old-values grad-into-returns
# framework: torch
# style: no detach anywhere
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = torch.exp(new_logp - old_logp)
    policy = -torch.min(ratio * advantages, ratio.clamp(1 - clip_eps, 1 + clip_eps) * advantages).mean()
    vc = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
    value = 0.5 * torch.max((values - returns) ** 2, (vc - returns) ** 2).mean()
    return policy + vf_coef * value - ent_coef * entropy.mean()

# expect: grad-into-returns
# framework: torch
# style: F.mse-like helper, targets in the graph
import torch


def _v(values, old_values, returns, eps):
    vc = old_values.detach() + (values - old_values.detach()).clamp(-eps, eps)
    return 0.5 * torch.maximum((values - returns) ** 2, (vc - returns) ** 2).mean()


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    r = (new_logp - old_logp.detach()).exp()
    a = advantages.detach()
    pl = -torch.minimum(r * a, r.clamp(1 - clip_eps, 1 + clip_eps) * a).mean()
    return pl + vf_coef * _v(values, old_values, returns, clip_eps) - ent_coef * entropy.mean()

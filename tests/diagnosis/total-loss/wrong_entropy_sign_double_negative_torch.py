# expect: entropy-sign
# framework: torch
# style: TorchRL-like loss_entropy = -ent_coef * H, then subtracted again
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    a = advantages.detach()
    r = torch.exp(new_logp - old_logp.detach())
    loss_objective = -torch.min(r * a, r.clamp(1 - clip_eps, 1 + clip_eps) * a).mean()
    vo, R = old_values.detach(), returns.detach()
    vc = vo + (values - vo).clamp(-clip_eps, clip_eps)
    loss_critic = vf_coef * 0.5 * torch.maximum((values - R) ** 2, (vc - R) ** 2).mean()
    loss_entropy = -ent_coef * entropy.mean()
    return loss_objective + loss_critic - loss_entropy

# expect: entropy-sign
# framework: torch
# style: CleanRL body with + ent_coef * entropy
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    adv = advantages.detach()
    ratio = (new_logp - old_logp.detach()).exp()
    pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    old, ret = old_values.detach(), returns.detach()
    v_clipped = old + torch.clamp(values - old, -clip_eps, clip_eps)
    v_loss = 0.5 * torch.max((values - ret) ** 2, (v_clipped - ret) ** 2).mean()
    return pg_loss + ent_coef * entropy.mean() + vf_coef * v_loss

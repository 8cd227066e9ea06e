# expect: grad-into-advantages
# framework: torch
# style: CleanRL body, advantages not detached (critic values used directly as the baseline upstream)
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = (new_logp - old_logp.detach()).exp()
    pg_loss = torch.max(-advantages * ratio, -advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    vo, R = old_values.detach(), returns.detach()
    v_clipped = vo + torch.clamp(values - vo, -clip_eps, clip_eps)
    v_loss = 0.5 * torch.max((values - R) ** 2, (v_clipped - R) ** 2).mean()
    return pg_loss - ent_coef * entropy.mean() + v_loss * vf_coef

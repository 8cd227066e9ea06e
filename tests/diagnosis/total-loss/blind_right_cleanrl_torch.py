# expect: right
# framework: torch
# style: CleanRL's loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    logratio = new_logp - old_logp.detach()
    ratio = logratio.exp()
    mb_adv = advantages.detach()
    pg_loss = torch.max(-mb_adv * ratio, -mb_adv * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    b_values, b_returns = old_values.detach(), returns.detach()
    v_unclipped = (values - b_returns) ** 2
    v_clipped = b_values + torch.clamp(values - b_values, -clip_eps, clip_eps)
    v_loss = 0.5 * torch.max(v_unclipped, (v_clipped - b_returns) ** 2).mean()
    entropy_loss = entropy.mean()
    return pg_loss - ent_coef * entropy_loss + v_loss * vf_coef

# expect: right
# framework: torch
# style: CleanRL update body: pg_loss, clipped v_loss, entropy_loss, loss = pg - ent * H + vf * v
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    mb_advantages = advantages.detach()
    logratio = new_logp - old_logp.detach()
    ratio = logratio.exp()
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

    b_values, b_returns = old_values.detach(), returns.detach()
    v_loss_unclipped = (values - b_returns) ** 2
    v_clipped = b_values + torch.clamp(values - b_values, -clip_eps, clip_eps)
    v_loss_clipped = (v_clipped - b_returns) ** 2
    v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()

    entropy_loss = entropy.mean()
    loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
    return loss

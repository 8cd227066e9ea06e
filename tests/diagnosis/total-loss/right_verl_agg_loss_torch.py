# expect: right
# framework: torch
# style: verl: agg_loss(token-mean) over an all-ones mask for every term; pg - entropy_coeff * H + vf
import torch


def agg_loss(loss_mat, loss_mask):
    return (loss_mat * loss_mask).sum() / loss_mask.sum()


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    mask = torch.ones_like(new_logp)
    A = advantages.detach()
    negative_approx_kl = new_logp - old_logp.detach()
    ratio = torch.exp(negative_approx_kl)
    pg_losses = torch.maximum(-A * ratio, -A * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps))
    pg_loss = agg_loss(pg_losses, mask)
    entropy_loss = agg_loss(entropy, mask)
    policy_loss = pg_loss - ent_coef * entropy_loss

    old = old_values.detach()
    R = returns.detach()
    vpredclipped = torch.max(torch.min(values, old + clip_eps), old - clip_eps)
    vf_losses = torch.maximum((values - R) ** 2, (vpredclipped - R) ** 2)
    vf_loss = 0.5 * agg_loss(vf_losses, mask)
    return policy_loss + vf_coef * vf_loss

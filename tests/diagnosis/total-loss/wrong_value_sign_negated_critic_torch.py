# expect: total-value-sign
# framework: torch
# style: critic term computed as a negative "score" and added
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    adv = advantages.detach()
    lr = new_logp - old_logp.detach()
    pg = torch.maximum(-adv * lr.exp(), -adv * lr.exp().clamp(1 - clip_eps, 1 + clip_eps)).mean()
    vo, tgt = old_values.detach(), returns.detach()
    vc = torch.clamp(values, vo - clip_eps, vo + clip_eps)
    critic_score = -0.5 * torch.maximum((values - tgt) ** 2, (vc - tgt) ** 2).mean()
    return pg + vf_coef * critic_score - ent_coef * entropy.mean()

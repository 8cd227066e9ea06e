import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = torch.exp(new_logp - old_logp.detach())
    adv = advantages.detach()
    policy_loss = -torch.min(adv * ratio, adv * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    old, ret = old_values.detach(), returns.detach()
    values_pred = old + torch.clamp(values - old, -clip_eps, clip_eps)
    value_loss = 0.5 * torch.max((ret - values) ** 2, (ret - values_pred) ** 2).mean()
    entropy_loss = -torch.mean(entropy)
    return policy_loss + ent_coef * entropy_loss + vf_coef * value_loss

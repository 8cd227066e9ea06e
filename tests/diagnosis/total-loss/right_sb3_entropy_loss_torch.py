# expect: right
# framework: torch
# style: SB3: entropy_loss = -mean(entropy); loss = policy + ent_coef * entropy_loss + vf_coef * value
import torch as th


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    advantages = advantages.detach()
    ratio = th.exp(new_logp - old_logp.detach())
    policy_loss_1 = advantages * ratio
    policy_loss_2 = advantages * th.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    policy_loss = -th.min(policy_loss_1, policy_loss_2).mean()

    rollout_values = old_values.detach()
    values_pred = rollout_values + th.clamp(values - rollout_values, -clip_eps, clip_eps)
    R = returns.detach()
    value_loss = 0.5 * th.max((R - values) ** 2, (R - values_pred) ** 2).mean()

    entropy_loss = -th.mean(entropy)
    return policy_loss + ent_coef * entropy_loss + vf_coef * value_loss

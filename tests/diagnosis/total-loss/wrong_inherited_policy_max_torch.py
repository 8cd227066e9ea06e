# expect: policy-max-instead-of-min
# framework: torch
# style: SB3 total with th.max in the policy term
import torch as th


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    advantages = advantages.detach()
    ratio = th.exp(new_logp - old_logp.detach())
    policy_loss = -th.max(advantages * ratio, advantages * th.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    ov, R = old_values.detach(), returns.detach()
    vp = ov + th.clamp(values - ov, -clip_eps, clip_eps)
    value_loss = 0.5 * th.max((R - values) ** 2, (R - vp) ** 2).mean()
    return policy_loss - ent_coef * th.mean(entropy) + vf_coef * value_loss

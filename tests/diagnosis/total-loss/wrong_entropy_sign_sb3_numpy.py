# expect: entropy-sign
# framework: numpy
# style: SB3 shape where entropy_loss lost its minus: loss = policy + ent_coef * mean(H) + vf * value
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = np.exp(new_logp - old_logp)
    policy_loss = -np.mean(np.minimum(advantages * ratio, advantages * np.clip(ratio, 1 - clip_eps, 1 + clip_eps)))
    values_pred = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    value_loss = 0.5 * np.mean(np.maximum((returns - values) ** 2, (returns - values_pred) ** 2))
    entropy_loss = np.mean(entropy)
    return policy_loss + ent_coef * entropy_loss + vf_coef * value_loss

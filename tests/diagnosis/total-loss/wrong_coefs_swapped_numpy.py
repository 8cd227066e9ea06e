# expect: total-coefs-swapped
# framework: numpy
# style: coefficients read from a tuple in the wrong order
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    value_weight, entropy_weight = ent_coef, vf_coef
    ratio = np.exp(new_logp - old_logp)
    pl = -np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages).mean()
    vclip = np.clip(values, old_values - clip_eps, old_values + clip_eps)
    vl = 0.5 * np.maximum((values - returns) ** 2, (vclip - returns) ** 2).mean()
    return pl + value_weight * vl - entropy_weight * entropy.mean()

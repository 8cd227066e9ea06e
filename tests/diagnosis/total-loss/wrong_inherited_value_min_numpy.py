# expect: value-min-instead-of-max
# framework: numpy
# style: NumPy total with np.minimum in the value term
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = np.exp(new_logp - old_logp)
    pg = -np.mean(np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages))
    vc = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    vf = 0.5 * np.mean(np.minimum((values - returns) ** 2, (vc - returns) ** 2))
    return pg + vf_coef * vf - ent_coef * np.mean(entropy)

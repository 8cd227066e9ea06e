# expect: ratio-inverted total-value-sign
# framework: numpy
# style: old - new in the exponent and the critic term subtracted
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    r = np.exp(old_logp - new_logp)
    pg = -np.mean(np.minimum(r * advantages, np.clip(r, 1 - clip_eps, 1 + clip_eps) * advantages))
    vc = np.clip(values, old_values - clip_eps, old_values + clip_eps)
    vf = 0.5 * np.mean(np.maximum((values - returns) ** 2, (vc - returns) ** 2))
    return pg - vf_coef * vf - ent_coef * np.mean(entropy)

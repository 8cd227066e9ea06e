# expect: total-value-sign
# framework: numpy
# style: value term subtracted
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    r = np.exp(new_logp - old_logp)
    pl = np.mean(-np.minimum(r * advantages, np.clip(r, 1 - clip_eps, 1 + clip_eps) * advantages))
    vc = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    vl = 0.5 * np.mean(np.maximum((values - returns) ** 2, (vc - returns) ** 2))
    return pl - vf_coef * vl - ent_coef * np.mean(entropy)

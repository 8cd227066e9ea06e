# expect: clip-eps-ignored
# framework: numpy
# style: policy band hard-coded to [0.8, 1.2]; the value clip uses clip_eps
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = np.exp(new_logp - old_logp)
    pg = -np.mean(np.minimum(ratio * advantages, np.clip(ratio, 0.8, 1.2) * advantages))
    vc = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    vf = 0.5 * np.mean(np.maximum((values - returns) ** 2, (vc - returns) ** 2))
    return pg + vf_coef * vf - ent_coef * np.mean(entropy)

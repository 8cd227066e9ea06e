# expect: right
# framework: numpy
# style: compact vectorised NumPy, log-space ratio clip
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    lr = new_logp - old_logp
    lr_c = np.clip(lr, np.log(1 - clip_eps), np.log(1 + clip_eps))
    pg = -np.minimum(np.exp(lr) * advantages, np.exp(lr_c) * advantages).mean()
    vc = np.clip(values, old_values - clip_eps, old_values + clip_eps)
    vl = 0.5 * np.maximum((values - returns) ** 2, (vc - returns) ** 2).mean()
    return pg + vf_coef * vl - ent_coef * entropy.mean()

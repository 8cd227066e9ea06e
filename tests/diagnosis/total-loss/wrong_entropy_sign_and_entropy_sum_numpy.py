# expect: entropy-sign
# expect-unnamed: entropy summed instead of averaged
# framework: numpy
# style: helpers; the entropy bonus added and summed over the batch
import numpy as np


def _pg(nl, ol, a, e):
    r = np.exp(nl - ol)
    return -np.mean(np.minimum(r * a, np.clip(r, 1 - e, 1 + e) * a))


def _vf(v, vo, ret, e):
    vc = vo + np.clip(v - vo, -e, e)
    return 0.5 * np.mean(np.maximum((v - ret) ** 2, (vc - ret) ** 2))


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    return (_pg(new_logp, old_logp, advantages, clip_eps) + vf_coef * _vf(values, old_values, returns, clip_eps)
            + ent_coef * np.sum(entropy))

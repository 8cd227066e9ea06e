# expect: right
# framework: numpy
# style: helper functions
import numpy as np


def _policy(new_logp, old_logp, adv, eps):
    r = np.exp(new_logp - old_logp)
    return float(np.mean(-np.minimum(r * adv, np.clip(r, 1 - eps, 1 + eps) * adv)))


def _value(v, v_old, ret, eps):
    vc = v_old + np.clip(v - v_old, -eps, eps)
    return float(0.5 * np.mean(np.maximum((v - ret) ** 2, (vc - ret) ** 2)))


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    return (_policy(new_logp, old_logp, advantages, clip_eps) + vf_coef * _value(values, old_values, returns, clip_eps)
            - ent_coef * float(np.mean(entropy)))

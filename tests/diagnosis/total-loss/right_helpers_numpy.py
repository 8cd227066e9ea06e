# expect: right
# framework: numpy
# style: NumPy with one helper per term
import numpy as np


def policy_loss(new_logp, old_logp, adv, eps):
    ratio = np.exp(new_logp - old_logp)
    return -np.mean(np.minimum(ratio * adv, np.clip(ratio, 1 - eps, 1 + eps) * adv))


def value_loss(v, v_old, ret, eps):
    v_clip = v_old + np.clip(v - v_old, -eps, eps)
    return 0.5 * np.mean(np.maximum((v - ret) ** 2, (v_clip - ret) ** 2))


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    pl = policy_loss(new_logp, old_logp, advantages, clip_eps)
    vl = value_loss(values, old_values, returns, clip_eps)
    return pl + vf_coef * vl - ent_coef * np.mean(entropy)

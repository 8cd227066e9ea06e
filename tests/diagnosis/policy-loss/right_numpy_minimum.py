# expect: right
# framework: numpy
# style: plain NumPy: np.minimum and np.clip, returned as a Python float
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(np.asarray(new_logp) - np.asarray(old_logp))
    unclipped = ratio * advantages
    clipped = np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * advantages
    return float(-np.mean(np.minimum(unclipped, clipped)))

# expect: ratio-inverted
# framework: numpy
# style: piecewise np.where, ratio as exp(old - new)
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    r = np.exp(old_logp - new_logp)
    hi, lo = 1 + clip_eps, 1 - clip_eps
    clipped = np.where(advantages >= 0, np.minimum(r, hi), np.maximum(r, lo))
    return -np.mean(clipped * advantages)

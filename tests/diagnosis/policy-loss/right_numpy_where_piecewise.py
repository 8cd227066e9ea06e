# expect: right
# framework: numpy
# style: NumPy np.where by the advantage's sign, 0-d array returned
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    r = np.exp(new_logp - old_logp)
    capped = np.where(advantages >= 0, np.minimum(r, 1 + clip_eps), np.maximum(r, 1 - clip_eps))
    return np.asarray(-(capped * advantages).mean())

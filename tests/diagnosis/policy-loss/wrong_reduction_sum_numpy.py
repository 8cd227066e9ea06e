# expect: reduction-sum
# framework: numpy
# style: np.sum in NumPy
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    obj = np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages)
    return -np.sum(obj)

# expect: ratio-wrong-denominator
# framework: numpy
# style: the denominator taken from new_logp as well
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    current = np.array(new_logp, copy=True)
    ratio = np.exp(new_logp - current)
    return -np.mean(np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages))

# expect: ratio-division
# framework: numpy
# style: np.exp(new) / np.exp(old) inline
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp) / np.exp(old_logp)
    return -np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages).mean()

# expect: ratio-inverted reduction-sum
# framework: numpy
# style: inverted ratio and summed terms
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    r = np.exp(-(new_logp - old_logp))
    return -np.sum(np.minimum(r * advantages, np.clip(r, 1 - clip_eps, 1 + clip_eps) * advantages))

# expect: policy-no-clip
# framework: numpy
# style: NumPy one-liner without the clipped branch
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    return -np.mean(np.exp(new_logp - old_logp) * advantages)

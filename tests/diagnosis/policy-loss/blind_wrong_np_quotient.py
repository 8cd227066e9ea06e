# expect: ratio-division
# framework: numpy
# style: probabilities divided
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    p_new = np.exp(new_logp)
    p_old = np.exp(old_logp)
    ratio = p_new / p_old
    unclipped = ratio * advantages
    clipped = np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages
    return -np.mean(np.minimum(unclipped, clipped))

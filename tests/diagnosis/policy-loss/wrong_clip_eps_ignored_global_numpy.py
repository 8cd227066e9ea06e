# expect: clip-eps-ignored
# framework: numpy
# style: module constant CLIP used instead of the argument
import numpy as np

CLIP = 0.2


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    clipped = np.clip(ratio, 1 - CLIP, 1 + CLIP)
    return -np.mean(np.minimum(ratio * advantages, clipped * advantages))

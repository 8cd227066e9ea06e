# expect: policy-clip-advantage reduction-sum
# framework: numpy
# style: advantage band [1 - eps, 1 + eps] and np.sum
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    r = np.exp(new_logp - old_logp)
    a_clip = np.clip(advantages, 1 - clip_eps, 1 + clip_eps)
    return -np.sum(np.minimum(r * advantages, r * a_clip))

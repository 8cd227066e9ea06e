# drill: policy-loss
# framework: numpy
# expect: output-type
# The right loss as a string.
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    return repr(float(-np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages).mean()))

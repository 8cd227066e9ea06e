# drill: policy-loss
# framework: numpy
# expect: output-type
# The right loss in a complex dtype with no imaginary part: still not a real float.
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    loss = -np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages).mean()
    return np.asarray(loss, dtype=np.complex64)

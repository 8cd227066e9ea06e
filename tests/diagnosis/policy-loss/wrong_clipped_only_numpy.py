# expect: policy-clipped-only
# framework: numpy
# style: NumPy, surrogate built from the clipped ratio alone
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(np.asarray(new_logp) - np.asarray(old_logp))
    surrogate = np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * np.asarray(advantages)
    return float(-surrogate.mean())

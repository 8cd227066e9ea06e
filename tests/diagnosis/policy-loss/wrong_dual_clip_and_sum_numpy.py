# expect: policy-dual-clip reduction-sum
# framework: numpy
# style: element loop with a dual-clip bound of 3 for bad actions, summed
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    total = 0.0
    for lp, olp, a in zip(new_logp, old_logp, advantages):
        r = np.exp(lp - olp)
        obj = min(r * a, np.clip(r, 1 - clip_eps, 1 + clip_eps) * a)
        if a < 0:
            obj = max(obj, 3.0 * a)
        total += -obj
    return total

# expect: right
# framework: numpy
# style: element loop with math.exp and min/max builtins, mean by dividing by the count
import math

import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    total = 0.0
    n = len(advantages)
    for lp, olp, a in zip(new_logp, old_logp, advantages):
        r = math.exp(float(lp) - float(olp))
        r_clip = min(max(r, 1.0 - clip_eps), 1.0 + clip_eps)
        total += -min(r * a, r_clip * a)
    return np.float64(total / n)

# expect: right
# framework: numpy
# style: one loop accumulating the three per-sample terms
import math

import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    n = len(new_logp)
    pg = vf = ent = 0.0
    for i in range(n):
        r = math.exp(float(new_logp[i]) - float(old_logp[i]))
        a = float(advantages[i])
        pg += -min(r * a, min(max(r, 1 - clip_eps), 1 + clip_eps) * a)
        v, vo, R = float(values[i]), float(old_values[i]), float(returns[i])
        vc = vo + min(max(v - vo, -clip_eps), clip_eps)
        vf += 0.5 * max((v - R) ** 2, (vc - R) ** 2)
        ent += float(entropy[i])
    return np.float64(pg / n + vf_coef * vf / n - ent_coef * ent / n)

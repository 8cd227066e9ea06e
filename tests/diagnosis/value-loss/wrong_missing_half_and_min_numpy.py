# expect: value-missing-half value-min-instead-of-max
# framework: numpy
# style: loop, min of the errors and no 1/2
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    out = np.empty(len(values))
    for i, (v, vo, r) in enumerate(zip(values, old_values, returns)):
        vc = vo + np.clip(v - vo, -clip_eps, clip_eps)
        out[i] = min((v - r) ** 2, (vc - r) ** 2)
    return out.mean()

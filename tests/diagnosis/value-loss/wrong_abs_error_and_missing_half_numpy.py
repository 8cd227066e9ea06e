# expect: value-abs-error value-missing-half
# framework: numpy
# style: absolute errors, no 1/2
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    vc = np.clip(values, old_values - clip_eps, old_values + clip_eps)
    return np.maximum(abs(values - returns), abs(vc - returns)).mean()

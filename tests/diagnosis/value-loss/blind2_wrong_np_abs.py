# expect: value-abs-error
# framework: numpy
# style: absolute errors
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    vc = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    return 0.5 * float(np.mean(np.maximum(np.abs(values - returns), np.abs(vc - returns))))

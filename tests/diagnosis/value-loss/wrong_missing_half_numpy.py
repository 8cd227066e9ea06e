# expect: value-missing-half
# framework: numpy
# style: NumPy, mean of the max without the factor
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    clipped = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    return float(np.mean(np.maximum(np.square(values - returns), np.square(clipped - returns))))

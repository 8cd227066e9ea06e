# expect: value-no-clip
# framework: numpy
# style: NumPy plain squared error
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    return 0.5 * np.mean((np.asarray(values) - np.asarray(returns)) ** 2)

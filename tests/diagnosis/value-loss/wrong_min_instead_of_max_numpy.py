# expect: value-min-instead-of-max
# framework: numpy
# style: np.minimum of the two squared errors
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    v_clip = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    return 0.5 * np.minimum((values - returns) ** 2, (v_clip - returns) ** 2).mean()

# expect: value-abs-error
# framework: numpy
# style: np.abs instead of squares
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    v_clip = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    return 0.5 * np.mean(np.maximum(np.abs(values - returns), np.abs(v_clip - returns)))

# expect: value-clip-ratio-style
# framework: numpy
# style: multiplicative band old * (1 +- eps) in NumPy
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    lo = np.minimum(old_values * (1 - clip_eps), old_values * (1 + clip_eps))
    hi = np.maximum(old_values * (1 - clip_eps), old_values * (1 + clip_eps))
    v_clip = np.clip(values, lo, hi)
    return 0.5 * np.mean(np.maximum((values - returns) ** 2, (v_clip - returns) ** 2))

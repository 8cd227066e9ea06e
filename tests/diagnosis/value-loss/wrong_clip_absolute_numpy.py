# expect: value-clip-absolute
# framework: numpy
# style: np.clip(values, -eps, eps), old values never used
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    values = np.asarray(values, dtype=float)
    clipped = np.clip(values, -clip_eps, clip_eps)
    se = (values - returns) ** 2
    se_clipped = (clipped - returns) ** 2
    return 0.5 * float(np.mean(np.maximum(se, se_clipped)))

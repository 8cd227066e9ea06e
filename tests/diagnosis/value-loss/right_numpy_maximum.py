# expect: right
# framework: numpy
# style: NumPy: np.clip on the change, np.maximum, 0.5 * mean
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    values = np.asarray(values, dtype=float)
    old_values = np.asarray(old_values, dtype=float)
    returns = np.asarray(returns, dtype=float)
    v_clip = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    loss = np.maximum((values - returns) ** 2, (v_clip - returns) ** 2)
    return float(0.5 * loss.mean())

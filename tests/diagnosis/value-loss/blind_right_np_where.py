# expect: right
# framework: numpy
# style: clip written with np.where
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    delta = values - old_values
    delta = np.where(delta > clip_eps, clip_eps, np.where(delta < -clip_eps, -clip_eps, delta))
    v_clip = old_values + delta
    return 0.5 * float(np.mean(np.maximum((values - returns) ** 2, (v_clip - returns) ** 2)))

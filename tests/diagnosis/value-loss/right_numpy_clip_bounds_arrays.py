# expect: right
# framework: numpy
# style: NumPy clip of the prediction between array bounds old - eps and old + eps, np.square
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    vpredclipped = np.clip(values, old_values - clip_eps, old_values + clip_eps)
    vf_losses = np.stack([np.square(values - returns), np.square(vpredclipped - returns)])
    return 0.5 * np.mean(vf_losses.max(axis=0))

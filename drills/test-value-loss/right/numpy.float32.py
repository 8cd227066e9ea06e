import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    v, old, r = (np.asarray(x, dtype=np.float32) for x in (values, old_values, returns))
    clipped = old + np.clip(v - old, -clip_eps, clip_eps)
    return 0.5 * np.mean(np.maximum(np.square(v - r), np.square(clipped - r)))

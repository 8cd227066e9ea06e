# expect: right
# framework: numpy
# style: float32 arrays throughout, np.float32 scalar out
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    v = np.asarray(values, dtype=np.float32)
    v_old = np.asarray(old_values, dtype=np.float32)
    ret = np.asarray(returns, dtype=np.float32)
    eps = np.float32(clip_eps)
    v_clip = v_old + np.clip(v - v_old, -eps, eps)
    return np.float32(0.5) * np.maximum(np.square(v - ret), np.square(v_clip - ret)).mean()

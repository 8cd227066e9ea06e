# expect: right
# framework: numpy
# style: NumPy closed form K / (K - 1) * (r - mean)
import numpy as np


def rloo_advantages(rewards):
    rewards = np.asarray(rewards)
    if rewards.ndim != 2:
        raise ValueError("rewards must be 2-D")
    P, K = rewards.shape
    if P == 0:
        raise ValueError("no prompts")
    if K < 2:
        raise ValueError("RLOO needs K >= 2")
    return K / (K - 1) * (rewards - rewards.mean(axis=1, keepdims=True))

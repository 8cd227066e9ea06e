# expect: right
# framework: numpy
# style: K / (K - 1) times the centred rewards
import numpy as np


def rloo_advantages(rewards):
    rewards = np.asarray(rewards, dtype=np.float64)
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with P >= 1 and K >= 2")
    k = rewards.shape[1]
    return k / (k - 1) * (rewards - rewards.mean(axis=1, keepdims=True))

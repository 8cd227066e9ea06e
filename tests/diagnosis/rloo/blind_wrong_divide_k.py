# expect: rloo-divides-by-k
# framework: numpy
# style: others' sum over K
import numpy as np


def rloo_advantages(rewards):
    rewards = np.asarray(rewards, dtype=np.float64)
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with P >= 1 and K >= 2")
    k = rewards.shape[1]
    return rewards - (rewards.sum(1, keepdims=True) - rewards) / k

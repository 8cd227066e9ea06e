# expect: rloo-batch-baseline
# framework: numpy
# style: baseline over the prompts (axis 0)
import numpy as np


def rloo_advantages(rewards):
    rewards = np.asarray(rewards, dtype=np.float64)
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with P >= 1 and K >= 2")
    p = rewards.shape[0]
    if p < 2:
        return np.zeros_like(rewards)
    return rewards - (rewards.sum(0, keepdims=True) - rewards) / (p - 1)

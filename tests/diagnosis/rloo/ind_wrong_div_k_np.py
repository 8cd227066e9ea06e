# expect: rloo-divides-by-k
# framework: numpy
# style: NumPy, others' sum divided by the row length
import numpy as np


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    loo_sum = rewards.sum(axis=1, keepdims=True) - rewards
    return rewards - loo_sum / rewards.shape[1]

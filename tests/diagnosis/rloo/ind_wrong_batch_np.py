# expect: rloo-batch-baseline
# framework: numpy
# style: NumPy, sums over every axis
import numpy as np


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    N = rewards.size
    return rewards - (rewards.sum() - rewards) / (N - 1)

# expect:
# expect-unnamed: advantage written baseline - reward (sign flipped)
# framework: numpy
import numpy as np


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    K = rewards.shape[1]
    baseline = (rewards.sum(axis=1, keepdims=True) - rewards) / (K - 1)
    return baseline - rewards

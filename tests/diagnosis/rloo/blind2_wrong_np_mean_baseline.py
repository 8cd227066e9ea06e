# expect: rloo-baseline-includes-self
# framework: numpy
# style: centred on the prompt mean
import numpy as np


def rloo_advantages(rewards):
    rewards = np.asarray(rewards, dtype=np.float64)
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards")
    return rewards - rewards.mean(axis=1, keepdims=True)

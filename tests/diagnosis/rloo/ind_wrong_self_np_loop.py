# expect: rloo-baseline-includes-self
# framework: numpy
# style: NumPy loop, baseline = np.mean(row)
import numpy as np


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    out = np.zeros_like(rewards)
    for p in range(rewards.shape[0]):
        baseline = np.mean(rewards[p])
        out[p] = rewards[p] - baseline
    return out

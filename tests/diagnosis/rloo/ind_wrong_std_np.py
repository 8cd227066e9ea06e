# expect: rloo-normalised-by-std
# framework: numpy
# style: NumPy, "whiten per prompt" after the leave-one-out baseline
import numpy as np


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    K = rewards.shape[1]
    adv = K / (K - 1) * (rewards - rewards.mean(axis=1, keepdims=True))
    return adv / (adv.std(axis=1, keepdims=True) + 1e-6)

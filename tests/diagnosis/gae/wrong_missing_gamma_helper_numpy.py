# expect: gae-missing-gamma
# framework: numpy
# style: helper discount_cumsum(x, lam), called with the wrong factor
import numpy as np


def discount_cumsum(x, factor, cut):
    y = np.zeros_like(x)
    running = 0.0
    for i in reversed(range(len(x))):
        running = x[i] + factor * (1 - cut[i]) * running
        y[i] = running
    return y


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=float)
    values = np.asarray(values, dtype=float)
    dones = np.asarray(dones, dtype=float)
    deltas = rewards + gamma * (1 - dones) * values[1:] - values[:-1]
    adv = discount_cumsum(deltas, lam, dones)
    return adv, adv + values[:-1]

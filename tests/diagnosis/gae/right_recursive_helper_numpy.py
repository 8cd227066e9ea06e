# expect: right
# framework: numpy
# style: helper functions, TD error then a discounted masked cumulative sum from the end
import numpy as np


def td_errors(rewards, values, dones, gamma):
    return rewards + gamma * values[1:] * (1.0 - dones) - values[:-1]


def masked_discount_cumsum(x, factor, dones):
    out = np.zeros_like(x, dtype=float)
    acc = 0.0
    for i in range(len(x) - 1, -1, -1):
        acc = x[i] + factor * (1.0 - dones[i]) * acc
        out[i] = acc
    return out


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=float)
    values = np.asarray(values, dtype=float)
    dones = np.asarray(dones, dtype=float)
    advantages = masked_discount_cumsum(td_errors(rewards, values, dones, gamma), gamma * lam, dones)
    returns = advantages + values[: len(rewards)]
    return advantages, returns

# expect: gae-done-shift
# framework: numpy
# style: reads the done of the previous step (dones[t - 1]), first step treated as not done
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=float)
    values = np.asarray(values, dtype=float)
    dones = np.asarray(dones, dtype=float)
    T = rewards.size
    prev_dones = np.concatenate([[0.0], dones[:-1]])
    adv = np.zeros(T)
    acc = 0.0
    for t in range(T - 1, -1, -1):
        m = 1.0 - prev_dones[t]
        delta = rewards[t] + gamma * values[t + 1] * m - values[t]
        acc = delta + gamma * lam * m * acc
        adv[t] = acc
    return adv, adv + values[:T]

# expect:
# expect-unnamed: returns as discounted reward-to-go without the bootstrap value
# framework: numpy
# style: reward-to-go ignoring values[T]
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T)
    ret = np.zeros(T)
    gae, g = 0.0, 0.0
    for t in reversed(range(T)):
        nd = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nd - values[t]
        gae = delta + gamma * lam * nd * gae
        g = rewards[t] + gamma * nd * g
        adv[t], ret[t] = gae, g
    return adv, ret

# expect: gae-forward-scan
# framework: numpy
# style: forward range
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T)
    gae = 0.0
    for t in range(T):
        nd = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nd - values[t]
        gae = delta + gamma * lam * nd * gae
        adv[t] = gae
    return adv, adv + values[:T]

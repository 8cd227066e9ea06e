# expect: gae-missing-gamma
# framework: numpy
# style: the trace decays by lam only
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T)
    last = 0.0
    for t in reversed(range(T)):
        nd = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nd - values[t]
        last = delta + lam * nd * last
        adv[t] = last
    return adv, adv + values[:T]

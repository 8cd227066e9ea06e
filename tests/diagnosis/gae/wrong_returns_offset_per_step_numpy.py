# expect: gae-returns-offset
# framework: numpy
# style: returns filled inside the loop as adv[t] + values[t + 1]
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T)
    ret = np.zeros(T)
    a = 0.0
    for t in reversed(range(T)):
        c = 1.0 - dones[t]
        a = rewards[t] + gamma * c * values[t + 1] - values[t] + gamma * lam * c * a
        adv[t] = a
        ret[t] = a + values[t + 1]
    return adv, ret

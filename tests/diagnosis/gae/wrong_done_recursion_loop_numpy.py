# expect: gae-done-recursion
# framework: numpy
# style: loop, bootstrap masked but the running advantage carried across the episode boundary
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T)
    gae = 0.0
    for t in reversed(range(T)):
        not_done = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * not_done - values[t]
        gae = delta + gamma * lam * gae
        adv[t] = gae
    return adv, adv + values[:T]

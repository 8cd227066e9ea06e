# expect: mc-return-for-lambda-return
# framework: numpy
# style: returns as the discounted reward-to-go with the bootstrap, not advantages + values
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T)
    ret = np.zeros(T)
    gae = 0.0
    running = values[T]
    for t in reversed(range(T)):
        nd = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nd - values[t]
        gae = delta + gamma * lam * nd * gae
        adv[t] = gae
        running = rewards[t] + gamma * nd * running
        ret[t] = running
    return adv, ret

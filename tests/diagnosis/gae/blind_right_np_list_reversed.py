# expect: right
# framework: numpy
# style: accumulate in a list, reverse at the end
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    dones = np.asarray(dones, dtype=np.float64)
    out = []
    gae = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        mask = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * mask - values[t]
        gae = delta + gamma * lam * mask * gae
        out.append(gae)
    adv = np.array(out[::-1])
    return adv, adv + values[:-1]

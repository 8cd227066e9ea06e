# expect: gae-forward-scan
# framework: numpy
# style: vectorised deltas, forward accumulation into a list (the previous step's advantage is carried)
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=float)
    values = np.asarray(values, dtype=float)
    notdone = 1.0 - np.asarray(dones, dtype=float)
    deltas = rewards + gamma * values[1:] * notdone - values[:-1]
    advs = []
    prev = 0.0
    for delta, nd in zip(deltas, notdone):
        prev = delta + gamma * lam * nd * prev
        advs.append(prev)
    advs = np.array(advs)
    return advs, advs + values[:-1]

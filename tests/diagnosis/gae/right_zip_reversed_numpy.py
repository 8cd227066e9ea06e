# expect: right
# framework: numpy
# style: spinning-up flavour: vectorised deltas, python list built backwards then reversed
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=float)
    values = np.asarray(values, dtype=float)
    not_done = 1.0 - np.asarray(dones, dtype=float)
    deltas = rewards + gamma * values[1:] * not_done - values[:-1]
    out = []
    running = 0.0
    for d, nd in zip(deltas[::-1], not_done[::-1]):
        running = d + gamma * lam * nd * running
        out.append(running)
    adv = np.array(out[::-1])
    return adv, adv + values[:-1]

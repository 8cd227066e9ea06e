# expect: gae-no-bootstrap
# framework: numpy
# style: vectorised: next values built from values[1:T] with a 0 appended
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    r = np.asarray(rewards, dtype=float)
    v = np.asarray(values, dtype=float)
    d = np.asarray(dones, dtype=float)
    T = len(r)
    next_v = np.append(v[1:T], 0.0)
    delta = r + gamma * next_v * (1.0 - d) - v[:T]
    adv = np.zeros(T)
    g = 0.0
    for t in range(T - 1, -1, -1):
        g = delta[t] + gamma * lam * (1.0 - d[t]) * g
        adv[t] = g
    return adv, adv + v[:T]

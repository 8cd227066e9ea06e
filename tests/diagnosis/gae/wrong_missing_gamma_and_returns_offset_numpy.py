# expect: gae-missing-gamma gae-returns-offset
# framework: numpy
# style: loop; lam-only decay and returns on the next-state values
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    A = np.zeros(T)
    for t in range(T - 1, -1, -1):
        nd = 1.0 - dones[t]
        nxt = A[t + 1] if t + 1 < T else 0.0
        A[t] = rewards[t] + gamma * nd * values[t + 1] - values[t] + lam * nd * nxt
    return A, A + values[1:]

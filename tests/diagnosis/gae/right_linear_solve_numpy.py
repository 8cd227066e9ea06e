# expect: right
# framework: numpy
# style: closed form: (I - gamma*lam*shift*mask) A = delta, solved with np.linalg.solve
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    r = np.asarray(rewards, dtype=np.float64)
    v = np.asarray(values, dtype=np.float64)
    d = np.asarray(dones, dtype=np.float64)
    T = r.size
    delta = r + gamma * v[1:] * (1 - d) - v[:T]
    M = np.eye(T)
    for t in range(T - 1):
        M[t, t + 1] = -gamma * lam * (1 - d[t])
    A = np.linalg.solve(M, delta)
    return A, A + v[:T]

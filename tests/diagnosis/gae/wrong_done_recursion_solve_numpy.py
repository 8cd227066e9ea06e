# expect: gae-done-recursion
# framework: numpy
# style: vectorised with a discount matrix (gamma*lam)^(k-t), deltas masked, matrix ignores dones
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    r = np.asarray(rewards, dtype=float)
    v = np.asarray(values, dtype=float)
    d = np.asarray(dones, dtype=float)
    T = r.shape[0]
    deltas = r + gamma * v[1:] * (1 - d) - v[:-1]
    idx = np.arange(T)
    power = idx[None, :] - idx[:, None]
    weights = np.where(power >= 0, (gamma * lam) ** np.clip(power, 0, None), 0.0)
    adv = weights @ deltas
    return adv, adv + v[:-1]

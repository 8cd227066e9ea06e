import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards, values, dones = (np.asarray(x, dtype=np.float64) for x in (rewards, values, dones))
    T = rewards.shape[0]
    keep = 1.0 - dones
    deltas = rewards + gamma * values[1:] * keep - values[:-1]
    # weight[t, k] = prod_{j=t}^{k-1} gamma * lam * keep[j] for k >= t
    weights = np.zeros((T, T))
    for t in range(T):
        w = 1.0
        for k in range(t, T):
            weights[t, k] = w
            w *= gamma * lam * keep[k]
    adv = weights @ deltas
    return adv, adv + values[:T]

# expect: right
# style: per-row deltas and a discounted cumulative sum
# framework: numpy
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros((B, T))
    for b in range(B):
        n = int(response_mask[b].sum())
        v = np.append(values[b, :n], 0.0)
        deltas = rewards[b, :n] + gamma * v[1:] - v[:-1]
        acc = 0.0
        for t in range(n - 1, -1, -1):
            acc = deltas[t] + gamma * lam * acc
            adv[b, t] = acc
    ret = np.where(response_mask, adv + np.where(response_mask, values, 0.0), 0.0)
    return adv, ret

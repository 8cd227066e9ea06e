# expect: tgae-forward-scan
# style: forward loop
# framework: numpy
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = values.shape
    adv = np.zeros((B, T))
    acc = np.zeros(B)
    for t in range(T):
        nxt = np.where(response_mask[:, t + 1], values[:, t + 1], 0.0) if t + 1 < T else np.zeros(B)
        d = rewards[:, t] + gamma * nxt - values[:, t]
        acc = np.where(response_mask[:, t], d + gamma * lam * acc, 0.0)
        adv[:, t] = acc
    return adv, np.where(response_mask, adv + values, 0.0)

# expect: tgae-padding-nonzero
# framework: numpy
# style: NumPy row loop for advantages, returns added afterwards without the mask
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros_like(rewards)
    for b in range(B):
        n = int(response_mask[b].sum())
        a = 0.0
        for t in range(n - 1, -1, -1):
            nv = values[b, t + 1] if t + 1 < n else 0.0
            a = rewards[b, t] + gamma * nv - values[b, t] + gamma * lam * a
            adv[b, t] = a
    return adv, adv + values

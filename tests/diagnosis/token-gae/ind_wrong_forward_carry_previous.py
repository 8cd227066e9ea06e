# expect: tgae-forward-scan
# framework: numpy
# style: NumPy, carry accumulated from the start of each row
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros_like(rewards)
    for b in range(B):
        n = int(response_mask[b].sum())
        carry = 0.0
        for t in range(n):
            nv = values[b, t + 1] if t + 1 < n else 0.0
            delta = rewards[b, t] + gamma * nv - values[b, t]
            carry = delta + gamma * lam * carry
            adv[b, t] = carry
    ret = np.where(response_mask, adv + np.where(response_mask, values, 0.0), 0.0)
    return adv, ret

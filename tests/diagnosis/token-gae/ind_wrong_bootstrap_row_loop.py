# expect: tgae-bootstrap-padding
# framework: numpy
# style: NumPy per-row loop; next value read from values[b, t + 1] whenever it exists
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros_like(rewards)
    ret = np.zeros_like(rewards)
    for b in range(B):
        n = int(response_mask[b].sum())
        gae = 0.0
        for t in reversed(range(n)):
            next_v = values[b, t + 1] if t + 1 < T else 0.0
            delta = rewards[b, t] + gamma * next_v - values[b, t]
            gae = delta + gamma * lam * gae
            adv[b, t] = gae
            ret[b, t] = gae + values[b, t]
    return adv, ret

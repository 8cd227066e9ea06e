# expect: tgae-bootstrap-padding
# framework: numpy
# style: next value read from the padded slot after the last token
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros((B, T))
    for b in range(B):
        n = int(response_mask[b].sum())
        gae = 0.0
        for t in reversed(range(n)):
            nv = values[b, t + 1] if t + 1 < T else 0.0
            delta = rewards[b, t] + gamma * nv - values[b, t]
            gae = delta + gamma * lam * gae
            adv[b, t] = gae
    ret = np.where(response_mask, adv + np.where(response_mask, values, 0.0), 0.0)
    return adv, ret

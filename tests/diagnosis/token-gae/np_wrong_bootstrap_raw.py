# expect: tgae-bootstrap-padding
# style: raw next value, carry reset
# framework: numpy
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = values.shape
    adv = np.zeros((B, T))
    gae = np.zeros(B)
    for t in range(T - 1, -1, -1):
        nxt = values[:, t + 1] if t < T - 1 else 0.0
        delta = rewards[:, t] + gamma * nxt - values[:, t]
        gae = np.where(response_mask[:, t], delta + gamma * lam * gae, 0.0)
        adv[:, t] = gae
    return adv, np.where(response_mask, adv + values, 0.0)

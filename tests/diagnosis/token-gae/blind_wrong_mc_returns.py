# expect: mc-return-for-lambda-return
# framework: numpy
# style: returns as the undiscounted reward-to-go (gamma = 1 default) per row
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros((B, T))
    ret = np.zeros((B, T))
    for b in range(B):
        n = int(response_mask[b].sum())
        gae, g = 0.0, 0.0
        for t in reversed(range(n)):
            nv = values[b, t + 1] if t + 1 < n else 0.0
            delta = rewards[b, t] + gamma * nv - values[b, t]
            gae = delta + gamma * lam * gae
            g = rewards[b, t] + gamma * g
            adv[b, t] = gae
            ret[b, t] = g
    return adv, ret

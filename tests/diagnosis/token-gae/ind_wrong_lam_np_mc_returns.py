# expect: tgae-lam-ignored
# framework: numpy
# style: NumPy, discounted reward-to-go minus the value (Monte-Carlo advantage)
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros_like(rewards)
    ret = np.zeros_like(rewards)
    for b in range(B):
        n = int(response_mask[b].sum())
        g = 0.0
        for t in range(n - 1, -1, -1):
            g = rewards[b, t] + gamma * g
            ret[b, t] = g
            adv[b, t] = g - values[b, t]
    return adv, ret

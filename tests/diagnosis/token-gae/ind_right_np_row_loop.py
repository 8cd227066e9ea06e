# expect: right
# framework: numpy
# style: NumPy, per-row loop over the valid prefix only
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros((B, T), dtype=rewards.dtype)
    ret = np.zeros((B, T), dtype=rewards.dtype)
    for b in range(B):
        n = int(response_mask[b].sum())
        running = 0.0
        for t in range(n - 1, -1, -1):
            v_next = values[b, t + 1] if t + 1 < n else 0.0
            delta = rewards[b, t] + gamma * v_next - values[b, t]
            running = delta + gamma * lam * running
            adv[b, t] = running
            ret[b, t] = running + values[b, t]
    return adv, ret

# expect: right
# framework: numpy
# style: one row at a time over its valid prefix
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = np.zeros((B, T), dtype=np.result_type(rewards.dtype, values.dtype))
    ret = np.zeros_like(adv)
    for b in range(B):
        n = int(response_mask[b].sum())
        gae = 0.0
        for t in range(n - 1, -1, -1):
            v_next = values[b, t + 1] if t + 1 < n else 0.0
            delta = rewards[b, t] + gamma * v_next - values[b, t]
            gae = delta + gamma * lam * gae
            adv[b, t] = gae
            ret[b, t] = gae + values[b, t]
    return adv, ret

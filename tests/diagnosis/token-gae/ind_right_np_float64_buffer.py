# expect: right
# framework: numpy
# style: NumPy float64 buffers, last valid index per row, cast back at the end
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    mask = np.asarray(response_mask, dtype=bool)
    B, T = mask.shape
    r = np.where(mask, rewards, 0).astype(np.float64)
    v = np.where(mask, values, 0).astype(np.float64)
    adv = np.zeros((B, T), dtype=np.float64)
    last = mask.sum(axis=1) - 1
    gl = gamma * lam
    for b in range(B):
        a = 0.0
        for t in range(last[b], -1, -1):
            nv = v[b, t + 1] if t < last[b] else 0.0
            a = r[b, t] + gamma * nv - v[b, t] + gl * a
            adv[b, t] = a
    ret = np.where(mask, adv + v, 0.0)
    return adv.astype(rewards.dtype), ret.astype(rewards.dtype)

# expect: right
# framework: numpy
# style: NumPy, batch-vectorised backward scan, next-value mask from the shifted response mask
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.astype(bool)
    r = np.where(m, rewards, 0.0)
    v = np.where(m, values, 0.0)
    next_valid = np.zeros_like(m)
    next_valid[:, :-1] = m[:, 1:]
    v_next = np.zeros_like(v)
    v_next[:, :-1] = v[:, 1:]
    v_next = np.where(next_valid, v_next, 0.0)
    delta = np.where(m, r + gamma * v_next - v, 0.0)
    adv = np.zeros_like(delta)
    carry = np.zeros(delta.shape[0], dtype=delta.dtype)
    for t in range(delta.shape[1] - 1, -1, -1):
        carry = np.where(m[:, t], delta[:, t] + gamma * lam * carry, 0.0)
        adv[:, t] = carry
    ret = np.where(m, adv + v, 0.0)
    return adv.astype(rewards.dtype), ret.astype(rewards.dtype)

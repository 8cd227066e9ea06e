# expect: tgae-forward-scan
# framework: numpy
# style: NumPy batch scan over range(T) with the carried advantage of the previous column
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.astype(bool)
    r = np.where(m, rewards, 0.0)
    v = np.where(m, values, 0.0)
    v_next = np.concatenate([v[:, 1:], np.zeros((v.shape[0], 1), dtype=v.dtype)], axis=1)
    delta = np.where(m, r + gamma * v_next - v, 0.0)
    adv = np.zeros_like(delta)
    prev = np.zeros(delta.shape[0], dtype=delta.dtype)
    for t in range(delta.shape[1]):
        prev = np.where(m[:, t], delta[:, t] + gamma * lam * prev, 0.0)
        adv[:, t] = prev
    return adv, np.where(m, adv + v, 0.0)

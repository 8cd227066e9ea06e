# expect: tgae-recursion-through-padding
# framework: numpy
# style: NumPy, no bootstrap past the end, but padded deltas r - V kept and carried back
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.astype(bool)
    B, T = rewards.shape
    next_valid = np.concatenate([m[:, 1:], np.zeros((B, 1), dtype=bool)], axis=1)
    v_next = np.concatenate([values[:, 1:], np.zeros((B, 1), dtype=values.dtype)], axis=1)
    v_next = np.where(next_valid, v_next, 0.0)
    delta = rewards + gamma * v_next - values
    adv = np.zeros_like(rewards)
    gae = np.zeros(B, dtype=rewards.dtype)
    for t in range(T - 1, -1, -1):
        gae = delta[:, t] + gamma * lam * gae
        adv[:, t] = gae
    adv = np.where(m, adv, 0.0)
    ret = np.where(m, adv + values, 0.0)
    return adv, ret

# expect: tgae-mask-multiplied
# framework: numpy
# style: NumPy, 0/1 float mask multiplied into every quantity
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    fm = response_mask.astype(rewards.dtype)
    B, T = rewards.shape
    adv = np.zeros_like(rewards)
    gae = np.zeros(B, dtype=rewards.dtype)
    for t in range(T - 1, -1, -1):
        nv = values[:, t + 1] * fm[:, t + 1] if t + 1 < T else 0.0
        delta = (rewards[:, t] + gamma * nv - values[:, t]) * fm[:, t]
        gae = (delta + gamma * lam * gae) * fm[:, t]
        adv[:, t] = gae
    ret = (adv + values) * fm
    return adv, ret

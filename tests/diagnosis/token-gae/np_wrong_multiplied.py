# expect: tgae-mask-multiplied
# style: OpenRLHF-style mask multiplication
# framework: numpy
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.astype(float)
    values = values * m
    rewards = rewards * m
    T = rewards.shape[1]
    last = 0.0
    out = []
    for t in reversed(range(T)):
        nv = values[:, t + 1] if t < T - 1 else 0.0
        last = rewards[:, t] + gamma * nv - values[:, t] + gamma * lam * last
        out.append(last)
    adv = np.stack(out[::-1], axis=1)
    return adv, adv + values

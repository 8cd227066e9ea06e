# expect: gae-missing-gamma
# framework: numpy
# style: loop, recursion decays by lam only
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    n = len(rewards)
    advantages = np.zeros(n)
    gae = 0.0
    for t in reversed(range(n)):
        m = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * m - values[t]
        gae = delta + lam * m * gae
        advantages[t] = gae
    return advantages, advantages + values[:n]

# expect: gae-forward-scan
# framework: numpy
# style: forward loop over t that reads advantages[t + 1] before it is written (so A equals delta)
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = np.zeros(T + 1)
    for t in range(T):
        mask = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * mask - values[t]
        advantages[t] = delta + gamma * lam * mask * advantages[t + 1]
    advantages = advantages[:T]
    return advantages, advantages + values[:T]

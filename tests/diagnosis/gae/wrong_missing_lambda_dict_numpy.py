# expect: gae-missing-lambda
# framework: numpy
# style: two-pass: TD errors in one loop, then the accumulation loop forgets lam
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    deltas = []
    for t in range(T):
        bootstrap = values[t + 1] * (1 - dones[t])
        deltas.append(rewards[t] + gamma * bootstrap - values[t])
    gaes = [0.0] * T
    future = 0.0
    for t in reversed(range(T)):
        future = deltas[t] + gamma * (1 - dones[t]) * future
        gaes[t] = future
    advantages = np.asarray(gaes, dtype=float)
    returns = advantages + np.asarray(values[:T], dtype=float)
    return advantages, returns

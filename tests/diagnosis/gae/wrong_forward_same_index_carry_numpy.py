# expect: gae-forward-scan
# framework: numpy
# style: "advantages[t] = advantages[t] * gamma * lam * (1 - d) + td" (reads slot t, not t + 1): no recursion at all
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=float)
    values = np.asarray(values, dtype=float)
    dones = np.asarray(dones, dtype=float)
    T = len(rewards)
    advantages = np.zeros(T)
    for t in reversed(range(T)):
        td = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t]
        advantages[t] = advantages[t] * gamma * lam * (1 - dones[t]) + td
    return advantages, advantages + values[:T]

# expect: gae-returns-offset
# framework: numpy
# style: correct CleanRL loop, returns on values[1:]
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = np.zeros(T)
    lastgaelam = 0.0
    for t in reversed(range(T)):
        nnt = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nnt - values[t]
        advantages[t] = lastgaelam = delta + gamma * lam * nnt * lastgaelam
    returns = advantages + values[1:]
    return advantages, returns

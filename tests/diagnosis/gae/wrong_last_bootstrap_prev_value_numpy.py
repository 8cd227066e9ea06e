# expect: gae-last-step-stale-bootstrap
# framework: numpy
# style: last step bootstraps from values[T - 1] (the state it starts from)
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = np.zeros(T)
    lastgaelam = 0.0
    for t in reversed(range(T)):
        nnt = 1.0 - dones[t]
        nextvalue = values[T - 1] if t == T - 1 else values[t + 1]
        delta = rewards[t] + gamma * nextvalue * nnt - values[t]
        advantages[t] = lastgaelam = delta + gamma * lam * nnt * lastgaelam
    return advantages, advantages + values[:T]

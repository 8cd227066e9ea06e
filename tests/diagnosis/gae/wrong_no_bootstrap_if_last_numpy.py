# expect: gae-no-bootstrap
# framework: numpy
# style: SB3-like special case for the last step, with next value 0
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = np.zeros(T)
    last_gae = 0.0
    for step in reversed(range(T)):
        if step == T - 1:
            next_value = 0.0
        else:
            next_value = values[step + 1]
        nnt = 1.0 - dones[step]
        delta = rewards[step] + gamma * next_value * nnt - values[step]
        last_gae = delta + gamma * lam * nnt * last_gae
        advantages[step] = last_gae
    return advantages, advantages + values[:T]

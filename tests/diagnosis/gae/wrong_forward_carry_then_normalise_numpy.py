# expect: gae-forward-scan
# expect-unnamed: advantages whitened before returning
# framework: numpy
# style: forward scan with a carry, then the advantages standardised (verl-style whitening)
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = np.zeros(T)
    last = 0.0
    for t in range(T):
        nt = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nt - values[t]
        last = delta + gamma * lam * nt * last
        advantages[t] = last
    returns = advantages + values[:T]
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages, returns

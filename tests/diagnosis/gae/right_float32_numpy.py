# expect: right
# framework: numpy
# style: everything cast to float32 up front (as rollout buffers usually are), float32 outputs
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards, dtype=np.float32)
    values = np.asarray(values, dtype=np.float32)
    dones = np.asarray(dones, dtype=np.float32)
    T = rewards.shape[0]
    advantages = np.zeros_like(rewards)
    lastgaelam = np.float32(0.0)
    for t in reversed(range(T)):
        nextnonterminal = np.float32(1.0) - dones[t]
        delta = rewards[t] + np.float32(gamma) * values[t + 1] * nextnonterminal - values[t]
        lastgaelam = delta + np.float32(gamma * lam) * nextnonterminal * lastgaelam
        advantages[t] = lastgaelam
    return advantages, advantages + values[:T]

# expect: gae-missing-lambda
# framework: numpy
# style: loop, recursion decays by gamma only (Monte-Carlo advantage whatever lam is)
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = np.zeros(T)
    running = 0.0
    for t in reversed(range(T)):
        nonterminal = 1.0 - dones[t]
        td = rewards[t] + gamma * nonterminal * values[t + 1] - values[t]
        running = td + gamma * nonterminal * running
        advantages[t] = running
    return advantages, advantages + values[:T]

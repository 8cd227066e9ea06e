# drill: gae
# framework: numpy
# expect: output-type
# The right values in object arrays (Python floats inside).
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T, dtype=object)
    last = 0.0
    for t in reversed(range(T)):
        nonterminal = 1.0 - float(dones[t])
        delta = float(rewards[t]) + gamma * float(values[t + 1]) * nonterminal - float(values[t])
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values[:T].astype(object)

# drill: gae
# framework: numpy
# expect: output-type
# The right advantages and returns, returned as complex128 with an imaginary part of 1000j: a float64
# conversion would drop it with only a ComplexWarning.
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = np.zeros(T, dtype=np.complex128)
    last = 0.0
    for t in reversed(range(T)):
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last + 1000j
    return adv, adv + values[:T]

# expect: gae-last-step-stale-bootstrap
# framework: numpy
# style: "last_value = values[-2]" misread as the final state's value, lists then np.array
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    values = list(map(float, values))
    T = len(rewards)
    last_value = values[-2]
    next_values = values[1:T] + [last_value]
    advs = []
    gae = 0.0
    for t in reversed(range(T)):
        nonterminal = 1.0 - float(dones[t])
        delta = float(rewards[t]) + gamma * next_values[t] * nonterminal - values[t]
        gae = delta + gamma * lam * nonterminal * gae
        advs.append(gae)
    adv = np.array(advs[::-1])
    return adv, adv + np.array(values[:T])

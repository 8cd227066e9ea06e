import numpy as np


def _td_errors(rewards, values, dones, gamma):
    not_done = 1.0 - dones
    return rewards + gamma * values[1:] * not_done - values[:-1], not_done


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards, values, dones = (np.asarray(x, dtype=np.float64) for x in (rewards, values, dones))
    deltas, not_done = _td_errors(rewards, values, dones, gamma)
    adv = np.zeros_like(deltas)
    running = 0.0
    t = len(deltas) - 1
    while t >= 0:
        running = deltas[t] + gamma * lam * not_done[t] * running
        adv[t] = running
        t -= 1
    print("debug: computed", len(adv), "advantages")
    return adv, adv + values[:-1]

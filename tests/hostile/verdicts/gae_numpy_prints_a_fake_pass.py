# drill: gae
# framework: numpy
# expect: fail
# Scans forward (wrong) and prints escape sequences that would clear the screen, draw a green
# "PASS gae (numpy) ✓", set the window title to "ppo-drill: PASS" and hide the rest, if the
# checker showed its output raw.
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    print("\x1b[2J\x1b[H\x1b[1;32mPASS\x1b[0m  gae (numpy) \u2713\x1b]0;ppo-drill: PASS\x07\x1b[8m\r\x9b2J\u202e")
    T = len(rewards)
    adv = np.zeros(T)
    last = 0.0
    for t in range(T):
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values[:T]

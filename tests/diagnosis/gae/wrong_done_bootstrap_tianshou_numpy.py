# expect: gae-done-bootstrap
# framework: numpy
# style: tianshou _gae shape: v_s_ passed unmasked, discount = (1 - end_flag) * gamma * lam
import numpy as np


def _gae(v_s, v_s_, rew, end_flag, gamma, gae_lambda):
    returns = np.zeros(rew.shape)
    delta = rew + v_s_ * gamma - v_s
    discount = (1.0 - end_flag) * (gamma * gae_lambda)
    gae = 0.0
    for i in range(len(rew) - 1, -1, -1):
        gae = delta[i] + discount[i] * gae
        returns[i] = gae
    return returns


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    values = np.asarray(values, dtype=float)
    adv = _gae(values[:-1], values[1:], np.asarray(rewards, float), np.asarray(dones, float), gamma, lam)
    return adv, adv + values[:-1]

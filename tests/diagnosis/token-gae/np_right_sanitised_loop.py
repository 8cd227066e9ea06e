# expect: right
# style: np.where sanitising, batched loop
# framework: numpy
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    r = np.where(response_mask, rewards, 0.0)
    v = np.where(response_mask, values, 0.0)
    v_next = np.concatenate([v[:, 1:], np.zeros((v.shape[0], 1))], axis=1)
    delta = r + gamma * v_next - v
    adv = np.zeros_like(delta)
    running = np.zeros(delta.shape[0])
    for t in reversed(range(delta.shape[1])):
        running = delta[:, t] + gamma * lam * running
        adv[:, t] = running
    adv = np.where(response_mask, adv, 0.0)
    return adv, np.where(response_mask, adv + v, 0.0)

# expect: clip-around-zero
# framework: numpy
# style: NumPy, np.clip(ratio, -eps, eps), CleanRL negated max
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    loss1 = -advantages * ratio
    loss2 = -advantages * np.clip(ratio, -clip_eps, clip_eps)
    return np.maximum(loss1, loss2).mean()

import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    loss = np.maximum(-ratio * advantages, -np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages)
    return float(np.mean(loss))

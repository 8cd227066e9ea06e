# expect: ratio-inverted
# framework: numpy
# style: log-ratio old - new
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    log_ratio = old_logp - new_logp
    ratio = np.exp(log_ratio)
    surr = np.minimum(ratio * advantages, np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * advantages)
    return -surr.mean()

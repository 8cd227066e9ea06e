# expect:
# expect-unnamed: the log-ratio is clipped to [-eps, eps] instead of the ratio to [1 - eps, 1 + eps]
# framework: numpy
# style: clip in log space
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    log_ratio = new_logp - old_logp
    ratio = np.exp(log_ratio)
    clipped_ratio = np.exp(np.clip(log_ratio, -clip_eps, clip_eps))
    return -np.mean(np.minimum(ratio * advantages, clipped_ratio * advantages))

# expect: reward-kl-sign
# framework: numpy
# style: log-ratio the other way round
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = np.where(response_mask, ref_log_probs - log_probs, 0.0)
    r = -kl_coef * kl
    last = response_mask.sum(1) - 1
    r[np.arange(len(last)), last] += scores
    return r

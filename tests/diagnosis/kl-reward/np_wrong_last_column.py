# expect: reward-score-last-column
# style: score on column -1
# framework: numpy
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    r = np.where(response_mask, -kl_coef * np.where(response_mask, log_probs - ref_log_probs, 0.0), 0.0)
    r[:, -1] = r[:, -1] + scores
    return r

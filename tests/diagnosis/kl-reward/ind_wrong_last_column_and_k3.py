# expect: reward-score-last-column reward-kl-not-k1
# framework: numpy
# style: NumPy, k3 penalty and score on the last column
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask.astype(bool)
    d = np.where(m, log_probs - ref_log_probs, 0.0)
    r = np.where(m, -kl_coef * (np.exp(-d) - 1 + d), 0.0)
    r[:, -1] += scores
    return r

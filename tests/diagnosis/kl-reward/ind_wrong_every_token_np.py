# expect: reward-score-every-token
# framework: numpy
# style: NumPy, score broadcast then masked
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask.astype(bool)
    kl = np.where(m, log_probs - ref_log_probs, 0.0)
    r = scores[:, None] - kl_coef * kl
    return np.where(m, r, 0.0)

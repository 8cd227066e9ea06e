# expect: reward-score-last-column
# framework: numpy
# style: NumPy, score written into a column vector concatenated at the end
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask.astype(bool)
    kl_r = np.where(m, -kl_coef * np.where(m, log_probs - ref_log_probs, 0.0), 0.0)
    score_grid = np.zeros_like(kl_r)
    score_grid[..., -1] = scores
    return kl_r + score_grid

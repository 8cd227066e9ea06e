# expect:
# expect-unnamed: the score multiplied by kl_coef as well (beta applied to the whole reward)
# framework: numpy
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask.astype(bool)
    kl = np.where(m, log_probs - ref_log_probs, 0.0)
    r = np.zeros_like(kl)
    r[np.arange(len(scores)), m.sum(1) - 1] = scores
    return np.where(m, kl_coef * (r - kl), 0.0)

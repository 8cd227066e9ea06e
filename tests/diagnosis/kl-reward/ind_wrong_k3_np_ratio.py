# expect: reward-kl-not-k1
# framework: numpy
# style: NumPy, k3 written with r = pi_ref / pi
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask.astype(bool)
    lr = np.where(m, log_probs - ref_log_probs, 0.0)
    r = np.exp(-lr)
    kl = (r - 1.0) - np.log(r)
    out = np.where(m, -kl_coef * kl, 0.0)
    idx = m.sum(1) - 1
    out[np.arange(len(idx)), idx] += scores
    return out

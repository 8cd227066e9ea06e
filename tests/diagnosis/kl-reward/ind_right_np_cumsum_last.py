# expect: right
# framework: numpy
# style: NumPy, last token found as the position where the running count reaches the length
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = np.asarray(response_mask, dtype=bool)
    count = np.cumsum(m, axis=1)
    is_last = m & (count == m.sum(axis=1, keepdims=True))
    safe_lp = np.where(m, log_probs, 0.0)
    safe_ref = np.where(m, ref_log_probs, 0.0)
    r = -kl_coef * (safe_lp - safe_ref) + np.where(is_last, scores[:, None], 0.0)
    return np.where(m, r, 0.0).astype(log_probs.dtype)

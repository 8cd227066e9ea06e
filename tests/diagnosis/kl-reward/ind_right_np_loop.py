# expect: right
# framework: numpy
# style: NumPy, explicit loop over rows and tokens
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    out = np.zeros((B, T), dtype=log_probs.dtype)
    for b in range(B):
        n = int(np.sum(response_mask[b]))
        for t in range(n):
            out[b, t] = -kl_coef * (log_probs[b, t] - ref_log_probs[b, t])
        out[b, n - 1] += scores[b]
    return out

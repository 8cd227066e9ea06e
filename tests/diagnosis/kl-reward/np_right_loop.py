# expect: right
# style: per-row loop with lengths
# framework: numpy
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    out = np.zeros((B, T))
    for b in range(B):
        n = int(response_mask[b].sum())
        out[b, :n] = -kl_coef * (log_probs[b, :n] - ref_log_probs[b, :n])
        out[b, n - 1] += scores[b]
    return out

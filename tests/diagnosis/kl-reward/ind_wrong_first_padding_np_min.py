# expect: reward-score-first-padding
# framework: numpy
# style: NumPy loop, score at min(n, T - 1)
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    out = np.zeros_like(log_probs)
    for b in range(B):
        n = int(response_mask[b].sum())
        out[b, :n] = -kl_coef * (log_probs[b, :n] - ref_log_probs[b, :n])
        out[b, min(n, T - 1)] += scores[b]
    return out

# expect: reward-score-replaces-kl
# framework: numpy
# style: NumPy loop: KL on every token but the last, which gets the score
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    out = np.zeros_like(log_probs)
    for b in range(log_probs.shape[0]):
        n = int(response_mask[b].sum())
        for t in range(n):
            if t == n - 1:
                out[b, t] = scores[b]
            else:
                out[b, t] = -kl_coef * (log_probs[b, t] - ref_log_probs[b, t])
    return out

# expect: right
# framework: numpy
# style: NumPy row loop
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    out = np.zeros(response_mask.shape, dtype=np.result_type(log_probs, ref_log_probs))
    for b in range(out.shape[0]):
        n = int(response_mask[b].sum())
        out[b, :n] = -kl_coef * (log_probs[b, :n] - ref_log_probs[b, :n])
        out[b, n - 1] += scores[b]
    return out

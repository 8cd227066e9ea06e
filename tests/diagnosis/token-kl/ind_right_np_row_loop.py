# expect: right
# framework: numpy
# style: NumPy loop over rows, running sums for the token-mean
import math
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"bad estimator {estimator}")
    B, T = log_probs.shape
    kl = np.zeros((B, T), dtype=log_probs.dtype)
    total, count = 0.0, 0
    for b in range(B):
        n = int(response_mask[b].sum())
        for t in range(n):
            lr = float(log_probs[b, t]) - float(ref_log_probs[b, t])
            if estimator == "k1":
                v = lr
            elif estimator == "k2":
                v = 0.5 * lr * lr
            else:
                v = math.exp(-lr) - 1.0 + lr
            kl[b, t] = v
            total += v
            count += 1
    return kl, total / count

# expect: kl-mean-per-row
# framework: numpy
# style: NumPy, per-row averages collected in a list
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    kl = np.zeros_like(log_probs)
    row_means = []
    for b in range(log_probs.shape[0]):
        m = response_mask[b]
        d = log_probs[b][m] - ref_log_probs[b][m]
        v = d if estimator == "k1" else (0.5 * d ** 2 if estimator == "k2" else np.exp(-d) - 1 + d)
        kl[b][m] = v
        row_means.append(v.mean())
    return kl, float(np.mean(row_means))

# expect: kl-k3-inverted-ratio
# framework: numpy
# style: NumPy, k3 = exp(d) - 1 - d
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    kl = np.zeros_like(log_probs)
    d = log_probs[response_mask] - ref_log_probs[response_mask]
    kl[response_mask] = {"k1": d, "k2": d * d / 2, "k3": np.exp(d) - 1 - d}[estimator]
    return kl, kl.sum() / np.count_nonzero(response_mask)

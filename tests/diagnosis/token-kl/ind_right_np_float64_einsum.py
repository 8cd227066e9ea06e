# expect: right
# framework: numpy
# style: NumPy float64 compute, masked count via count_nonzero, cast back to the input dtype
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"estimator must be k1, k2 or k3, not {estimator!r}")
    m = np.asarray(response_mask, dtype=bool)
    lp = np.where(m, log_probs, 0.0).astype(np.float64)
    ref = np.where(m, ref_log_probs, 0.0).astype(np.float64)
    log_ratio = lp - ref
    if estimator == "k1":
        kl = log_ratio
    elif estimator == "k2":
        kl = 0.5 * np.square(log_ratio)
    else:
        kl = np.exp(-log_ratio) - 1.0 + log_ratio
    kl = np.where(m, kl, 0.0)
    return kl.astype(log_probs.dtype), float(kl.sum() / np.count_nonzero(m))

# expect: kl-mean-per-row
# framework: numpy
# style: per-row means averaged
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    kl = {"k1": d, "k2": 0.5 * d ** 2, "k3": np.exp(-d) - 1 + d}[estimator]
    kl = np.where(response_mask, kl, 0.0)
    per_row = kl.sum(axis=1) / response_mask.sum(axis=1)
    return kl, per_row.mean()

# expect: kl-k3-inverted-ratio
# framework: numpy
# style: k3 = expm1(d) - d
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = 0.5 * d ** 2
    else:
        kl = np.expm1(d) - d
    kl = np.where(response_mask, kl, 0.0)
    return kl, kl.sum() / response_mask.sum()

# expect: kl-padding-kept
# framework: numpy
# style: NumPy kl times the mask
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError("estimator")
    with np.errstate(all="ignore"):
        d = log_probs - ref_log_probs
        kl = {"k1": d, "k2": 0.5 * d * d, "k3": np.exp(-d) - 1 + d}[estimator] * response_mask
    return kl, kl.sum() / response_mask.sum()

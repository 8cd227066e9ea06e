# expect: right
# framework: numpy
# style: NumPy on the valid entries, scattered back
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    d = (log_probs - ref_log_probs)[response_mask]
    vals = {"k1": lambda: d, "k2": lambda: 0.5 * d * d, "k3": lambda: np.expm1(-d) + d}[estimator]()
    kl = np.zeros(log_probs.shape, dtype=np.result_type(log_probs, ref_log_probs))
    kl[response_mask] = vals
    return kl, vals.sum() / response_mask.sum()

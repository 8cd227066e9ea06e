# expect: right
# style: dict of estimators, boolean-index mean
# framework: numpy
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError("estimator must be one of k1, k2, k3")
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    kl = {"k1": d, "k2": 0.5 * d * d, "k3": np.expm1(-d) + d}[estimator]
    kl = np.where(response_mask, kl, 0.0)
    return kl, float(kl[response_mask].mean())

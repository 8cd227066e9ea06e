# expect: kl-k2-missing-half
# framework: numpy
# style: NumPy np.power(d, 2) for k2
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    m = response_mask.astype(bool)
    d = np.where(m, log_probs - ref_log_probs, 0.0)
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = np.power(d, 2)
    elif estimator == "k3":
        kl = np.exp(-d) - 1 + d
    else:
        raise ValueError(estimator)
    return kl, kl.sum() / m.sum()

# expect: kl-padding-kept
# framework: numpy
# style: NumPy, the mean over kl[mask] is right, kl itself returned raw
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    with np.errstate(all="ignore"):
        d = log_probs - ref_log_probs
        if estimator == "k1":
            kl = d
        elif estimator == "k2":
            kl = 0.5 * d ** 2
        elif estimator == "k3":
            kl = np.exp(-d) - 1 + d
        else:
            raise ValueError(estimator)
    return kl, kl[response_mask].mean()

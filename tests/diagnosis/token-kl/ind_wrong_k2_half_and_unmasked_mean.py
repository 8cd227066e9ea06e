# expect: kl-k2-missing-half kl-mean-unmasked
# framework: numpy
# style: NumPy, squared log-ratio for k2 and np.mean over every slot
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = d ** 2
    elif estimator == "k3":
        kl = np.exp(-d) - 1 + d
    else:
        raise ValueError(estimator)
    return kl, np.mean(kl)

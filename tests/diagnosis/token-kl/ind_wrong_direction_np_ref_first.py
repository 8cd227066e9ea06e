# expect: kl-direction-swapped
# framework: numpy
# style: NumPy, log-ratio taken as ref minus policy for every estimator
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    lr = np.where(response_mask, ref_log_probs - log_probs, 0.0)
    if estimator == "k1":
        kl = lr
    elif estimator == "k2":
        kl = 0.5 * lr ** 2
    elif estimator == "k3":
        kl = np.exp(-lr) - 1.0 + lr
    else:
        raise ValueError(estimator)
    kl = np.where(response_mask, kl, 0.0)
    return kl, kl.sum() / response_mask.sum()

# expect: kl-direction-swapped
# style: log-ratio ref minus policy
# framework: numpy
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    lr = np.where(response_mask, ref_log_probs - log_probs, 0.0)
    if estimator == "k1":
        kl = lr
    elif estimator == "k2":
        kl = lr ** 2 / 2
    else:
        kl = np.exp(-lr) - 1 + lr
    kl = np.where(response_mask, kl, 0.0)
    return kl, kl.sum() / response_mask.sum()

# expect: kl-mean-unmasked
# style: np.mean over all slots
# framework: numpy
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    kl = d if estimator == "k1" else (0.5 * d ** 2 if estimator == "k2" else np.exp(-d) - 1 + d)
    kl = np.where(response_mask, kl, 0.0)
    return kl, np.mean(kl)

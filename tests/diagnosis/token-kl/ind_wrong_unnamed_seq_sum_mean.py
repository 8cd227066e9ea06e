# expect:
# expect-unnamed: kl_mean is the per-sequence sum averaged over rows (seq-mean-token-sum), not a token-mean
# framework: numpy
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = 0.5 * d ** 2
    elif estimator == "k3":
        kl = np.exp(-d) - 1 + d
    else:
        raise ValueError(estimator)
    kl = np.where(response_mask, kl, 0.0)
    return kl, kl.sum(axis=1).mean()

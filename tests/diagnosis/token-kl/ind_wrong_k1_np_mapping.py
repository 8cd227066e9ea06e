# expect: kl-k1-for-k3
# framework: numpy
# style: NumPy mapping that sends k3 to the unbiased k1 ("both are unbiased")
import numpy as np


def _k1(d):
    return d


def _k2(d):
    return 0.5 * d ** 2


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    table = {"k1": _k1, "k2": _k2, "k3": _k1}
    if estimator not in table:
        raise ValueError(estimator)
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    kl = table[estimator](d)
    kl = np.where(response_mask, kl, 0.0)
    return kl, float(kl[response_mask].mean())

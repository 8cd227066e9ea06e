# expect: kl-mean-unmasked
# framework: numpy
# style: NumPy, divided by kl.size
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = np.where(response_mask, log_probs - ref_log_probs, 0.0)
    funcs = {"k1": lambda x: x, "k2": lambda x: x ** 2 / 2, "k3": lambda x: np.expm1(-x) + x}
    if estimator not in funcs:
        raise ValueError(estimator)
    kl = np.where(response_mask, funcs[estimator](d), 0.0)
    return kl, kl.sum() / kl.size

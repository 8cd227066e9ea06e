# expect: right
# framework: numpy
# style: NumPy, estimator on the valid tokens only, written back into a zero buffer
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in {"k1", "k2", "k3"}:
        raise ValueError("estimator must be one of k1, k2, k3")
    d = log_probs[response_mask] - ref_log_probs[response_mask]
    if estimator == "k1":
        vals = d
    elif estimator == "k2":
        vals = np.square(d) / 2
    else:
        r = np.exp(-d)
        vals = (r - 1) - np.log(r)
    kl = np.zeros_like(log_probs)
    kl[response_mask] = vals
    return kl, vals.mean()

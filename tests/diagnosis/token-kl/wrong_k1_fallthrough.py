# expect: kl-k1-for-k3
# style: everything but k2 treated as k1
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    log_ratio = log_probs - ref_log_probs
    if estimator == "k2":
        kl = 0.5 * log_ratio ** 2
    else:
        kl = log_ratio
    kl = kl.masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

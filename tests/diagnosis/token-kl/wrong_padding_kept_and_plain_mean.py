# expect: kl-padding-kept kl-mean-unmasked
# style: mask ignored everywhere
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    log_ratio = log_probs - ref_log_probs
    if estimator == "k1":
        kl = log_ratio
    elif estimator == "k2":
        kl = log_ratio ** 2 / 2
    elif estimator == "k3":
        kl = (-log_ratio).exp() - 1 + log_ratio
    else:
        raise ValueError(estimator)
    return kl, kl.mean()

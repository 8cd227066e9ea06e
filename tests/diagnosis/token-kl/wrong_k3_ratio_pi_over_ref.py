# expect: kl-k3-inverted-ratio
# style: k3 with r = pi / pi_ref
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    log_ratio = log_probs - ref_log_probs
    if estimator == "k1":
        kl = log_ratio
    elif estimator == "k2":
        kl = 0.5 * log_ratio ** 2
    elif estimator == "k3":
        ratio = log_ratio.exp()
        kl = ratio - 1 - log_ratio
    else:
        raise ValueError(estimator)
    kl = kl.masked_fill(~response_mask, 0)
    return kl, kl.sum() / response_mask.sum()

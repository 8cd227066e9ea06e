# expect: kl-direction-swapped
# style: log-ratio ref - policy
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    lr = ref_log_probs - log_probs
    if estimator == "k1":
        kl = lr
    elif estimator == "k2":
        kl = lr.pow(2) / 2
    else:
        kl = (-lr).exp() - 1 + lr
    kl = kl.masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

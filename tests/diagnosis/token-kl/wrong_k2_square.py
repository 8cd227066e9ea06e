# expect: kl-k2-missing-half
# style: k2 as the plain square
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    lr = log_probs - ref_log_probs
    if estimator == "k1":
        kl = lr
    elif estimator == "k2":
        kl = lr.square()
    elif estimator == "k3":
        kl = torch.exp(-lr) - 1 + lr
    else:
        raise ValueError(estimator)
    kl = kl.masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

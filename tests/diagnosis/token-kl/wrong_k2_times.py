# expect: kl-k2-missing-half
# style: d * d
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = log_probs - ref_log_probs
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = d * d
    elif estimator == "k3":
        kl = torch.expm1(-d) + d
    else:
        raise ValueError(estimator)
    kl = torch.where(response_mask, kl, 0.0)
    return kl, kl.sum() / response_mask.sum()

# expect: kl-padding-kept
# style: mask used only for the count
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = log_probs - ref_log_probs
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = 0.5 * d ** 2
    elif estimator == "k3":
        kl = torch.exp(-d) - 1 + d
    else:
        raise ValueError(estimator)
    return kl, kl.sum() / response_mask.sum()

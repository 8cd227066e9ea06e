# expect: kl-k1-for-k3
# style: k3 grouped with k1
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = log_probs - ref_log_probs
    if estimator in ("k1", "k3"):
        kl = d
    elif estimator == "k2":
        kl = d.square() / 2
    else:
        raise ValueError(f"unknown estimator {estimator}")
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.sum() / response_mask.sum()

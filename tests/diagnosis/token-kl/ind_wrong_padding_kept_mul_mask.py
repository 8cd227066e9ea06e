# expect: kl-padding-kept
# framework: torch
# style: masked sum for the mean, per-token kl never masked
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    d = log_probs - ref_log_probs
    kl = d if estimator == "k1" else (d.pow(2) / 2 if estimator == "k2" else torch.exp(-d) - 1 + d)
    kl_mean = torch.where(response_mask, kl, torch.zeros_like(kl)).sum() / response_mask.sum()
    return kl, kl_mean

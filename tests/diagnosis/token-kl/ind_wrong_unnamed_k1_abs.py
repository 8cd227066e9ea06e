# expect:
# expect-unnamed: k1 taken as |log_ratio| ("a KL is never negative"), k2 and k3 right
# framework: torch
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    if estimator == "k1":
        kl = d.abs()
    elif estimator == "k2":
        kl = 0.5 * d ** 2
    elif estimator == "k3":
        kl = torch.exp(-d) - 1 + d
    else:
        raise ValueError(estimator)
    return kl, kl.sum() / response_mask.sum()

# expect: kl-k1-for-k3
# framework: torch
# style: "k3" branch falls through to the plain log-ratio (only k2 special-cased)
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    log_ratio = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    if estimator == "k2":
        kl = 0.5 * log_ratio ** 2
    else:
        kl = log_ratio
    return kl, kl.sum() / response_mask.sum()

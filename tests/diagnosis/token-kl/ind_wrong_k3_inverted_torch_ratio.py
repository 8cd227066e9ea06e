# expect: kl-k3-inverted-ratio
# framework: torch
# style: ratio = pi / pi_ref as in the PPO ratio, then (r - 1) - log r
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    log_ratio = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    if estimator == "k1":
        kl = log_ratio
    elif estimator == "k2":
        kl = 0.5 * log_ratio ** 2
    else:
        ratio = torch.exp(log_ratio)
        kl = (ratio - 1) - torch.log(ratio)
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.sum() / response_mask.sum()

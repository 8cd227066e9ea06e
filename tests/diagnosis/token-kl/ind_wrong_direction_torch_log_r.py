# expect: kl-direction-swapped
# framework: torch
# style: names log r = log(pi_ref/pi) and then uses it as if it were log(pi/pi_ref)
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    log_r = torch.where(response_mask, ref_log_probs - log_probs, torch.zeros_like(log_probs))
    if estimator == "k1":
        kl = log_r
    elif estimator == "k2":
        kl = log_r.square() / 2
    elif estimator == "k3":
        kl = torch.exp(-log_r) - 1 + log_r
    else:
        raise ValueError(f"unknown estimator {estimator}")
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.sum() / response_mask.sum()

# expect: right
# framework: torch
# style: match statement, sanitise the log-ratio first, torch.where everywhere
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    log_ratio = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    match estimator:
        case "k1":
            kl = log_ratio
        case "k2":
            kl = log_ratio.pow(2).mul(0.5)
        case "k3":
            kl = torch.expm1(-log_ratio) + log_ratio
        case _:
            raise ValueError(f"unknown estimator {estimator}")
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    kl_mean = kl.sum() / response_mask.sum().clamp(min=1)
    return kl, kl_mean

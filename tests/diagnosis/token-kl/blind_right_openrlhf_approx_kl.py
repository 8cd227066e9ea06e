# expect: right
# framework: torch
# style: OpenRLHF's compute_approx_kl (k3 via -log_ratio, then expm1-like form)
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    log_ratio = log_probs.float() - ref_log_probs.float() if log_probs.dtype == torch.float32 else log_probs - ref_log_probs
    log_ratio = log_ratio.masked_fill(~response_mask, 0.0)
    if estimator == "k2":
        log_ratio = log_ratio ** 2 / 2.0
    elif estimator == "k3":
        log_ratio = -log_ratio
        log_ratio = log_ratio.exp() - 1 - log_ratio
    kl = log_ratio.masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

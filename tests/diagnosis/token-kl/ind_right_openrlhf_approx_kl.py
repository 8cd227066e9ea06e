# expect: right
# framework: torch
# style: OpenRLHF compute_approx_kl (k2 / k3 flags), float32 compute, where instead of * mask
import torch


def compute_approx_kl(log_probs, log_probs_base, kl_estimator="k1"):
    log_ratio = log_probs.float() - log_probs_base.float()
    if kl_estimator == "k2":
        log_ratio = log_ratio ** 2 / 2.0
    elif kl_estimator == "k3":
        log_ratio = -log_ratio
        log_ratio = log_ratio.exp() - 1 - log_ratio
    return log_ratio


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    dtype = log_probs.dtype
    if dtype == torch.float64:
        kl = log_probs - ref_log_probs
        if estimator == "k2":
            kl = kl ** 2 / 2.0
        elif estimator == "k3":
            kl = (-kl).exp() - 1 + kl
    else:
        kl = compute_approx_kl(log_probs, ref_log_probs, estimator)
    kl = kl.masked_fill(~response_mask, 0.0).to(dtype)
    n = response_mask.sum()
    return kl, kl.sum() / n

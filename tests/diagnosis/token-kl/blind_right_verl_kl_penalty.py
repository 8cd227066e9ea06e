# expect: right
# framework: torch
# style: verl's kl_penalty branches, low_var_kl clamped to [-10, 10], masked mean
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    logprob = torch.where(response_mask, log_probs, torch.zeros_like(log_probs))
    ref_logprob = torch.where(response_mask, ref_log_probs, torch.zeros_like(ref_log_probs))
    if estimator == "k1":
        kl = logprob - ref_logprob
    elif estimator == "k2":
        kl = 0.5 * (logprob - ref_logprob).square()
    else:
        kl = ref_logprob - logprob
        kl = torch.clamp(kl, min=-20, max=20)
        ratio = torch.exp(kl)
        kl = torch.clamp(ratio - kl - 1, min=-10, max=10)
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.sum() / response_mask.sum()

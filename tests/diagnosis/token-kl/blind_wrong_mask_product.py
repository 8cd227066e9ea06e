# expect: kl-padding-kept
# framework: torch
# style: kl multiplied by the float mask
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    d = log_probs - ref_log_probs
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = 0.5 * d ** 2
    else:
        kl = torch.exp(-d) - 1 + d
    m = response_mask.to(kl.dtype)
    kl = kl * m
    return kl, kl.sum() / m.sum()

# expect: kl-k3-inverted-ratio
# framework: torch
# style: k3 with r = pi / pi_ref (only k3's ratio flipped)
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    zero = torch.zeros((), dtype=log_probs.dtype)
    d = torch.where(response_mask, log_probs - ref_log_probs, zero)
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = d ** 2 / 2
    else:
        r = torch.exp(d)
        kl = (r - 1) - torch.log(r)
    kl = torch.where(response_mask, kl, zero)
    return kl, kl.sum() / response_mask.sum()

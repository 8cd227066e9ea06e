# expect: kl-direction-swapped kl-k2-missing-half
# framework: torch
# style: argument order swapped at the helper call, and k2 without the half
import torch


def _estimate(a, b, kind):
    d = a - b
    if kind == "k1":
        return d
    if kind == "k2":
        return d * d
    if kind == "k3":
        return torch.exp(-d) - 1 + d
    raise ValueError(kind)


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    kl = _estimate(ref_log_probs, log_probs, estimator)
    kl = kl.masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

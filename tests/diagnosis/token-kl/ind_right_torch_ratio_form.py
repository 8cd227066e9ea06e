# expect: right
# framework: torch
# style: k3 written with the ratio r = pi_ref / pi as in Schulman's note, float64 accumulate for the mean
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError("estimator must be 'k1', 'k2' or 'k3'")
    valid = response_mask.bool()
    lp = log_probs.masked_fill(~valid, 0.0)
    ref = ref_log_probs.masked_fill(~valid, 0.0)
    logr = ref - lp                      # log(pi_ref / pi)
    if estimator == "k1":
        kl = -logr
    elif estimator == "k2":
        kl = 0.5 * logr ** 2
    else:
        r = torch.exp(logr)
        kl = (r - 1) - logr
    kl = kl.masked_fill(~valid, 0.0)
    kl_mean = (kl.double().sum() / valid.sum()).to(kl.dtype)
    return kl, kl_mean

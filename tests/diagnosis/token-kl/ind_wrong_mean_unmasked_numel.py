# expect: kl-mean-unmasked
# framework: torch
# style: sum over the batch divided by B * T written out
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    B, T = log_probs.shape
    log_ratio = (log_probs - ref_log_probs).masked_fill(~response_mask, 0)
    kl = log_ratio if estimator == "k1" else (0.5 * log_ratio ** 2 if estimator == "k2" else log_ratio.neg().exp() - 1 + log_ratio)
    kl = kl.masked_fill(~response_mask, 0)
    return kl, kl.sum() / (B * T)

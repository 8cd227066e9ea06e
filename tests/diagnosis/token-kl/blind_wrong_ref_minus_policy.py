# expect: kl-direction-swapped
# framework: torch
# style: log-ratio ref - policy throughout
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}")
    zero = torch.zeros((), dtype=log_probs.dtype)
    lr = torch.where(response_mask, ref_log_probs - log_probs, zero)
    if estimator == "k1":
        kl = lr
    elif estimator == "k2":
        kl = 0.5 * lr ** 2
    else:
        kl = torch.exp(-lr) - 1 + lr
    kl = torch.where(response_mask, kl, zero)
    return kl, kl.sum() / response_mask.sum()

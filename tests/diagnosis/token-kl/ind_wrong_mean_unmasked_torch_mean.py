# expect: kl-mean-unmasked
# framework: torch
# style: kl masked properly, then kl.mean() over all B*T slots
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = 0.5 * d * d
    elif estimator == "k3":
        kl = torch.exp(-d) + d - 1
    else:
        raise ValueError(estimator)
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.mean()

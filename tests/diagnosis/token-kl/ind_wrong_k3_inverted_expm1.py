# expect: kl-k3-inverted-ratio
# framework: torch
# style: expm1 of the policy-over-reference log-ratio
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    if estimator == "k3":
        kl = torch.expm1(d) - d
    elif estimator == "k2":
        kl = 0.5 * d * d
    elif estimator == "k1":
        kl = d
    else:
        raise ValueError("estimator")
    kl = kl.masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

# expect: right
# style: OpenRLHF compute_approx_kl with clamp, masked_fill
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    log_ratio = log_probs.float() - ref_log_probs.float()
    if estimator == "k1":
        kl = log_ratio
    elif estimator == "k2":
        kl = log_ratio ** 2 / 2.0
    elif estimator == "k3":
        log_ratio = -log_ratio
        kl = log_ratio.exp() - 1 - log_ratio
    else:
        raise ValueError(estimator)
    kl = kl.clamp(min=-10, max=10).masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

# expect: kl-direction-swapped
# style: ratio pi / pi_ref, k1 = -log r
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    log_r = log_probs - ref_log_probs
    r = torch.exp(log_r)
    if estimator == "k1":
        kl = -log_r
    elif estimator == "k2":
        kl = 0.5 * log_r ** 2
    elif estimator == "k3":
        kl = (r - 1) - log_r
    else:
        raise ValueError("unknown estimator")
    kl = torch.where(response_mask, kl, torch.zeros((), dtype=kl.dtype))
    return kl, kl.sum() / response_mask.sum()

# expect: kl-mean-unmasked
# style: kl.mean() after zeroing
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = log_probs - ref_log_probs
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = 0.5 * d ** 2
    elif estimator == "k3":
        kl = torch.exp(-d) - 1 + d
    else:
        raise ValueError(estimator)
    kl = kl.masked_fill(~response_mask, 0.0)
    return kl, kl.mean()

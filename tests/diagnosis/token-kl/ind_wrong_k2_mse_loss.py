# expect: kl-k2-missing-half
# framework: torch
# style: k2 via F.mse_loss(reduction="none") between the two log-probs
import torch
import torch.nn.functional as F


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    lp = log_probs.masked_fill(~response_mask, 0.0)
    ref = ref_log_probs.masked_fill(~response_mask, 0.0)
    if estimator == "k1":
        kl = lp - ref
    elif estimator == "k2":
        kl = F.mse_loss(lp, ref, reduction="none")
    elif estimator == "k3":
        kl = torch.exp(ref - lp) - 1 - (ref - lp)
    else:
        raise ValueError(estimator)
    kl = kl.masked_fill(~response_mask, 0.0)
    return kl, kl.sum() / response_mask.sum()

# expect: kl-k2-missing-half
# style: k2 as an MSE between log-probs
import torch
import torch.nn.functional as F


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator == "k2":
        kl = F.mse_loss(log_probs, ref_log_probs, reduction="none")
    elif estimator == "k1":
        kl = log_probs - ref_log_probs
    elif estimator == "k3":
        d = ref_log_probs - log_probs
        kl = d.exp() - 1 - d
    else:
        raise ValueError(estimator)
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.sum() / response_mask.sum()

# expect: kl-k2-missing-half
# framework: torch
# style: torch.square as "the squared log-ratio"
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    lr = log_probs - ref_log_probs
    kl = {
        "k1": lambda: lr,
        "k2": lambda: torch.square(lr),
        "k3": lambda: torch.exp(-lr) - 1 + lr,
    }.get(estimator)
    if kl is None:
        raise ValueError(estimator)
    out = torch.where(response_mask, kl(), torch.zeros_like(lr))
    return out, out.sum() / response_mask.sum()

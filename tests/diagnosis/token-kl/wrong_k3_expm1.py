# expect: kl-k3-inverted-ratio
# style: expm1 of the policy log-ratio
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in {"k1", "k2", "k3"}:
        raise ValueError(estimator)
    d = log_probs - ref_log_probs
    kl = d if estimator == "k1" else (0.5 * d * d if estimator == "k2" else torch.expm1(d) - d)
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.sum() / response_mask.sum()

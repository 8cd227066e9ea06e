# expect: kl-padding-kept
# style: divides by the count but sums everything
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    x = ref_log_probs - log_probs
    kl = {"k1": -x, "k2": 0.5 * x * x, "k3": torch.expm1(x) - x}[estimator]
    n_valid = response_mask.sum()
    return kl, torch.sum(kl) / n_valid

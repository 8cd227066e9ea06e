# expect: right
# style: expm1, boolean indexing for the mean
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = ref_log_probs - log_probs
    table = {"k1": lambda: -d, "k2": lambda: 0.5 * d * d, "k3": lambda: torch.expm1(d) - d}
    if estimator not in table:
        raise ValueError("estimator must be k1, k2 or k3")
    kl = torch.zeros_like(log_probs)
    kl[response_mask] = table[estimator]()[response_mask]
    return kl, kl[response_mask].mean()

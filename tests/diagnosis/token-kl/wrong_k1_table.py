# expect: kl-k1-for-k3
# style: lookup table maps k3 to the log-ratio
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    lr = log_probs - ref_log_probs
    table = {"k1": lr, "k2": 0.5 * lr * lr, "k3": lr}
    if estimator not in table:
        raise ValueError(estimator)
    kl = torch.where(response_mask, table[estimator], 0.0)
    return kl, kl.sum() / response_mask.sum()

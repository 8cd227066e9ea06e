# expect: kl-mean-unmasked
# style: sum over numel
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    lr = log_probs - ref_log_probs
    kl = {"k1": lr, "k2": 0.5 * lr * lr, "k3": torch.exp(-lr) - 1 + lr}[estimator]
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, kl.sum() / kl.numel()

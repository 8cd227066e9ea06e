# expect: kl-mean-per-row
# framework: torch
# style: sequence-level mean: sum per row divided by row length, averaged
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    lr = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    if estimator == "k1":
        kl = lr
    elif estimator == "k2":
        kl = 0.5 * lr.pow(2)
    elif estimator == "k3":
        kl = torch.exp(-lr) - 1 + lr
    else:
        raise ValueError(estimator)
    kl = kl.masked_fill(~response_mask, 0.0)
    lengths = response_mask.sum(dim=1).to(kl.dtype)
    seq_kl = kl.sum(dim=1) / lengths
    return kl, seq_kl.sum() / kl.shape[0]

# expect: kl-padding-kept kl-mean-per-row
# framework: torch
# style: raw per-token kl, mean of per-row means from boolean selection
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
    means = [kl[b][response_mask[b]].mean() for b in range(kl.shape[0])]
    return kl, torch.stack(means).mean()

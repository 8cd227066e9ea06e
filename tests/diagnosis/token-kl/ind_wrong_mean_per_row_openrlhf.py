# expect: kl-mean-per-row
# framework: torch
# style: OpenRLHF masked_mean(dim=-1) then .mean() over the batch
import torch


def masked_mean(t, mask, dim=None):
    if dim is None:
        return (t * mask).sum() / mask.sum()
    return (t * mask).sum(dim) / mask.sum(dim)


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    d = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    if estimator == "k1":
        kl = d
    elif estimator == "k2":
        kl = d ** 2 / 2
    else:
        kl = (-d).exp() - 1 + d
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, masked_mean(kl, response_mask, dim=-1).mean()

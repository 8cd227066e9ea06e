# expect: kl-mean-per-row
# style: masked mean along dim -1 then mean
import torch


def masked_mean(x, mask, dim=None):
    return (x * mask).sum(dim=dim) / mask.sum(dim=dim)


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    d = ref_log_probs - log_probs
    if estimator == "k1":
        kl = -d
    elif estimator == "k2":
        kl = d ** 2 / 2
    elif estimator == "k3":
        kl = d.exp() - d - 1
    else:
        raise ValueError(estimator)
    kl = torch.where(response_mask, kl, torch.zeros((), dtype=kl.dtype))
    return kl, masked_mean(kl, response_mask, dim=-1).mean()

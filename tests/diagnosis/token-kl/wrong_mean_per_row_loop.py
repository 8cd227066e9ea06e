# expect: kl-mean-per-row
# style: loop over responses, OpenRLHF-style logged mean
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(estimator)
    lr = log_probs - ref_log_probs
    kl = {"k1": lr, "k2": lr * lr / 2, "k3": torch.exp(-lr) - 1 + lr}[estimator]
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    means = [kl[b][response_mask[b]].mean() for b in range(kl.shape[0])]
    return kl, torch.stack(means).mean()

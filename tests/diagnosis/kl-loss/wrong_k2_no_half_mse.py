# expect: klloss-k2-missing-half
# framework: torch
# style: k2 as a squared error, (logp - ref)^2
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(kl_type)
    sel = response_mask
    diff = torch.where(sel, log_prob, torch.zeros_like(log_prob)) - torch.where(sel, ref_log_prob, torch.zeros_like(log_prob)).detach()
    sq = diff.pow(2)
    k3 = torch.exp(-diff) - 1 + diff
    if kl_type == "k1":
        per = diff
    elif kl_type == "k2":
        per = sq
    elif kl_type == "k3":
        per = k3
    else:
        per = sq - sq.detach() + k3.detach()
    return (per * sel).sum() / sel.sum()

# expect: kl-mask-multiplied
# framework: torch
# style: masked mean written as (x * mask).sum() / mask.sum() on an unselected difference
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(kl_type)
    mask = response_mask.to(log_prob.dtype)
    d = log_prob - ref_log_prob.detach()
    k2 = 0.5 * d ** 2
    k3 = torch.exp(-d) - 1 + d
    per = {"k1": d, "k2": k2, "k3": k3, "k3+": k2 - k2.detach() + k3.detach()}[kl_type]
    return (per * mask).sum() / mask.sum()

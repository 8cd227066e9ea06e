# expect: kl-straight-through-reversed
# framework: torch
# style: the straight-through with the roles of k2 and k3 exchanged
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    valid = response_mask
    d = torch.where(valid, log_prob - ref_log_prob.detach(), torch.zeros_like(log_prob))
    k1, k2, k3 = d, d.square() / 2, torch.exp(-d) + d - 1
    if kl_type == "k1":
        out = k1
    elif kl_type == "k2":
        out = k2
    elif kl_type == "k3":
        out = k3
    elif kl_type == "k3+":
        out = k2.detach() + (k3 - k3.detach())
    else:
        raise ValueError(kl_type)
    return out[valid].mean()

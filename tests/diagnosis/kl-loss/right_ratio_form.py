# expect: right
# framework: torch
# style: k3 written with the ratio r = pi_ref / pi_theta as in Schulman's note
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(kl_type)
    m = response_mask
    log_r = torch.where(m, ref_log_prob.detach() - log_prob, torch.zeros_like(log_prob))
    r = torch.exp(log_r)
    k1 = -log_r
    k2 = log_r ** 2 / 2
    k3 = (r - 1) - log_r
    table = {"k1": k1, "k2": k2, "k3": k3, "k3+": k3.detach() + k2 - k2.detach()}
    n = m.sum()
    return torch.where(m, table[kl_type], torch.zeros_like(log_r)).sum() / n

# expect: kl-k1-sign
# framework: torch
# style: k1 = log(pi_ref / pi_theta), the log-ratio used by k3
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(kl_type)
    m = response_mask
    log_ratio = torch.where(m, ref_log_prob.detach() - log_prob, torch.zeros_like(log_prob))
    k1 = log_ratio
    k2 = 0.5 * log_ratio ** 2
    k3 = torch.exp(log_ratio) - 1 - log_ratio
    per = {"k1": k1, "k2": k2, "k3": k3, "k3+": k2 - k2.detach() + k3.detach()}[kl_type]
    return torch.where(m, per, torch.zeros_like(per)).sum() / m.sum()

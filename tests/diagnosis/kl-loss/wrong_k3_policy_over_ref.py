# expect: kl-k3-ratio-inverted
# framework: torch
# style: ratio r = pi_theta / pi_ref plugged into r - 1 - log r
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(kl_type)
    m = response_mask
    d = torch.where(m, log_prob - ref_log_prob.detach(), torch.zeros_like(log_prob))
    ratio = d.exp()
    k3 = ratio - 1 - torch.log(ratio)
    k2 = 0.5 * d ** 2
    per = {"k1": d, "k2": k2, "k3": k3, "k3+": k2 - k2.detach() + k3.detach()}[kl_type]
    return torch.where(m, per, torch.zeros_like(per)).sum() / m.sum()

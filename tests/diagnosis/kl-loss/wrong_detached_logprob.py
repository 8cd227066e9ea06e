# expect: kl-no-gradient
# framework: torch
# style: the KL estimate computed under no_grad, as for a reward, then averaged
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(kl_type)
    with torch.no_grad():
        d = torch.where(response_mask, log_prob - ref_log_prob, torch.zeros_like(log_prob))
        k3 = torch.exp(-d) - 1 + d
        per = {"k1": d, "k2": 0.5 * d ** 2, "k3": k3, "k3+": k3}[kl_type]
        per = torch.where(response_mask, per, torch.zeros_like(per))
    return per.sum() / response_mask.sum()

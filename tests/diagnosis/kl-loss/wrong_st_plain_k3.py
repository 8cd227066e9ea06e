# expect: kl-straight-through-k3-gradient
# framework: torch
# style: "k3+" treated as an alias of k3
import torch

ALIASES = {"k3+": "k3", "low_var_kl": "k3"}


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    kind = ALIASES.get(kl_type, kl_type)
    if kind not in ("k1", "k2", "k3"):
        raise ValueError(kl_type)
    m = response_mask
    d = torch.where(m, log_prob - ref_log_prob.detach(), torch.zeros_like(log_prob))
    per = {"k1": d, "k2": 0.5 * d * d, "k3": torch.exp(-d) - 1 + d}[kind]
    return torch.where(m, per, torch.zeros_like(per)).sum() / m.sum()

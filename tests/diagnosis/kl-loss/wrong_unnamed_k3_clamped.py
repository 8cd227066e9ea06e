# expect:
# expect-unnamed: the loss and its gradient where the log-ratio is large
# framework: torch
# style: OpenRLHF-style clamp of the per-token estimate to [-10, 10], with the log-ratio clamped at 2
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(kl_type)
    m = response_mask
    d = torch.where(m, log_prob - ref_log_prob.detach(), torch.zeros_like(log_prob)).clamp(-2.0, 2.0)
    k2 = 0.5 * d ** 2
    k3 = torch.exp(-d) - 1 + d
    per = {"k1": d, "k2": k2, "k3": k3, "k3+": k2 - k2.detach() + k3.detach()}[kl_type].clamp(-10, 10)
    return torch.where(m, per, torch.zeros_like(per)).sum() / m.sum()

# expect: right
# framework: torch
# style: verl core_algos.kl_penalty with low_var_kl clamp, masked_mean helper
import torch


def kl_penalty(logprob, ref_logprob, kl_penalty="low_var_kl"):
    if kl_penalty in ("kl", "k1"):
        return logprob - ref_logprob
    if kl_penalty in ("mse", "k2"):
        return 0.5 * (logprob - ref_logprob).square()
    if kl_penalty in ("low_var_kl", "k3"):
        kl = ref_logprob - logprob
        kl = torch.clamp(kl, min=-20, max=20)
        ratio = torch.exp(kl)
        kld = (ratio - kl - 1).contiguous()
        return torch.clamp(kld, min=-10, max=10)
    raise ValueError(f"unknown estimator {kl_penalty!r}")


def masked_mean(values, mask):
    return (values * mask).sum() / mask.sum()


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    names = {"k1": "kl", "k2": "mse", "k3": "low_var_kl"}
    if estimator not in names:
        raise ValueError(f"estimator must be k1, k2 or k3, got {estimator!r}")
    kl = kl_penalty(log_probs, ref_log_probs, names[estimator])
    kl = torch.where(response_mask, kl, torch.zeros_like(kl))
    return kl, masked_mean(kl, response_mask)

"""KL estimators k1, k2, k3 (Schulman's "Approximating KL divergence") and the KL-shaped reward of RLHF.

With samples from p and log r = log q - log p (per token):
    k1 = -log r                  unbiased, can be negative per sample
    k2 = (log r)^2 / 2           biased, low variance, always >= 0
    k3 = (r - 1) - log r         unbiased, always >= 0 (x - 1 >= log x)
For the PPO diagnostic, p = pi_old (the sampler) and q = pi_theta, so log r = logp - old_logp;
for the reference penalty, p = pi_theta and q = pi_ref, so log r = ref_logp - logp.
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64
from checker.reference.masking import masked_mean


def kl_per_token(logp, ref_logp, estimator: str = "k3") -> torch.Tensor:
    """Per-token estimate of KL(p || q) where `logp` are the sampling policy's log-probs and `ref_logp`
    the other policy's, on the same tokens."""
    log_r = f64(ref_logp) - f64(logp)
    if estimator == "k1":
        return -log_r
    if estimator == "k2":
        return 0.5 * log_r**2
    if estimator == "k3":
        return torch.expm1(log_r) - log_r
    raise ValueError(f"unknown KL estimator {estimator!r}; expected k1, k2 or k3")


def kl_k1(logp, ref_logp, mask=None) -> torch.Tensor:
    """Masked mean of k1 = logp - ref_logp."""
    return masked_mean(kl_per_token(logp, ref_logp, "k1"), mask)


def kl_k2(logp, ref_logp, mask=None) -> torch.Tensor:
    """Masked mean of k2 = (logp - ref_logp)^2 / 2."""
    return masked_mean(kl_per_token(logp, ref_logp, "k2"), mask)


def kl_k3(logp, ref_logp, mask=None) -> torch.Tensor:
    """Masked mean of k3 = exp(ref - logp) - 1 - (ref - logp) >= 0, zero iff the log-probs agree."""
    return masked_mean(kl_per_token(logp, ref_logp, "k3"), mask)


def kl_shaped_rewards(logp, ref_logp, task_reward, mask=None, beta: float = 0.1, estimator: str = "k1"):
    """Per-token RLHF reward r_t = -beta * KL_t (k1: logp_t - ref_logp_t), with the sequence's task reward
    added on its last valid token (Ouyang et al. 2022, eq. 2; the placement of verl and OpenRLHF). logp, ref_logp, mask [..., T]; task_reward [...].
    Padded positions get 0. Put the KL either here or in the loss, never both."""
    lp = f64(logp)
    m = as_mask(mask, lp)
    per_token = -beta * kl_per_token(lp, ref_logp, estimator)
    rewards = torch.where(m, per_token, torch.zeros((), dtype=lp.dtype))
    T = lp.shape[-1]
    positions = torch.arange(T).expand(lp.shape)
    last = torch.where(m, positions, torch.full_like(positions, -1)).max(dim=-1).values
    has_valid = last >= 0
    onehot = (positions == last.unsqueeze(-1)) & has_valid.unsqueeze(-1)
    return rewards + onehot.to(lp.dtype) * f64(task_reward).unsqueeze(-1)

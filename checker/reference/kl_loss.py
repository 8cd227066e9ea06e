"""The KL regulariser as a loss term (GRPO's KL loss, verl's `kl_loss_type`): what each estimator's
gradient estimates when it is differentiated through log pi_theta on samples of pi_theta.

With d = log pi_theta - log pi_ref per sampled token (Schulman, *Approximating KL divergence*, 2020):
    k1 = d                      gradient 1 * grad log pi: zero in expectation
    k2 = d^2 / 2                gradient d * grad log pi: in expectation the gradient of KL(pi_theta || pi_ref)
    k3 = e^-d - 1 + d           gradient (1 - e^-d) grad log pi: in expectation the gradient of KL(pi_ref || pi_theta)
    k3+ (straight-through)      the value of k3, the gradient of k2 (verl's "k3+": k2 - sg(k2) + sg(k3))
Averaged over valid tokens. (Liu et al. 2025, *Rethinking KL Regularization in RLHF*, make the gradient
argument; verl's `kl_penalty` docstring states that only k2's gradient is the KL's.)
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64

KL_TYPES = ("k1", "k2", "k3", "k3+")


def kl_loss(log_prob, ref_log_prob, mask, kl_type: str = "k3") -> torch.Tensor:
    if kl_type not in KL_TYPES:
        raise ValueError(f"unknown kl_type {kl_type!r}; expected one of {KL_TYPES}")
    lp = f64(log_prob)
    m = as_mask(mask, lp)
    zero = torch.zeros((), dtype=torch.float64)
    d = torch.where(m, lp - f64(ref_log_prob).detach(), zero)
    k2 = 0.5 * d**2
    k3 = torch.expm1(-d) + d
    per_token = {"k1": d, "k2": k2, "k3": k3, "k3+": k2 - k2.detach() + k3.detach()}[kl_type]
    return torch.where(m, per_token, zero).sum() / m.to(torch.float64).sum().clamp_min(1.0)

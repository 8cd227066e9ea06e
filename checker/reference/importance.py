"""Trajectory importance weights and the effective sample size (Owen 2013, ch. 9; Kish's effective sample size)."""
from __future__ import annotations

import torch

from checker.reference._tensor import f64
from checker.reference.masking import masked_sum


def trajectory_log_weight(logp, old_logp, mask=None) -> torch.Tensor:
    """log w = sum_t m_t (logp_t - old_logp_t) per trajectory ([..., T] -> [...]).

    The environment's transition probabilities appear in both pi_theta's and pi_old's trajectory
    probability and cancel, so only the policy's per-token log-probs remain. Its variance grows with
    the number of policy tokens (sd ~ sigma sqrt(L) for independent per-token log-ratios)."""
    return masked_sum(f64(logp) - f64(old_logp), mask, dim=-1)


def effective_sample_size(log_weights) -> torch.Tensor:
    """ESS = (sum_n w_n)^2 / sum_n w_n^2 over the last dim, computed from log w in log space:
    exp(2 logsumexp(log w) - logsumexp(2 log w)), so weights like e^800 neither overflow nor underflow.
    Equals N for equal weights and approaches 1 when one weight dominates."""
    lw = f64(log_weights)
    return torch.exp(2.0 * torch.logsumexp(lw, dim=-1) - torch.logsumexp(2.0 * lw, dim=-1))

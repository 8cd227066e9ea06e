"""Reducing a per-token loss matrix to a scalar: the four aggregation modes of LLM PPO trainers.

The choice changes how much each token and each sequence weighs (verl `agg_loss`; Dr. GRPO): token
mean weighs every valid token equally, so long answers dominate; sequence means weigh every answer
equally, so tokens of short answers weigh more.
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64
from checker.reference.masking import masked_count, masked_sum

AGGREGATION_MODES = ("token_mean", "seq_mean_token_sum", "seq_mean_token_mean", "seq_mean_token_sum_norm")


def aggregate(loss_mat, mask=None, mode: str = "token_mean", norm_const: float | None = None) -> torch.Tensor:
    """Aggregate `loss_mat` [..., T] over valid tokens (`mask`, None = all valid).

    - token_mean:               sum_{i,t} m L / sum_{i,t} m
    - seq_mean_token_sum:       mean over sequences of sum_t m L
    - seq_mean_token_mean:      mean over sequences of (sum_t m L / sum_t m)
    - seq_mean_token_sum_norm:  mean over sequences of (sum_t m L) / norm_const, norm_const defaulting
                                to T (the padded length), as in Dr. GRPO. (verl's code sums over the
                                sequences without dividing by their number, verl issue #3741.)
    "Sequences" are all leading positions; sequences with no valid token are left out of the sequence
    means (verl), and a batch with no valid token at all aggregates to 0.
    """
    L = f64(loss_mat)
    m = as_mask(mask, L)
    if mode == "token_mean":
        return masked_sum(L, m) / masked_count(L, m).clamp_min(1.0)
    per_seq_sum = masked_sum(L, m, dim=-1).reshape(-1)
    counts = masked_count(L, m, dim=-1).reshape(-1)
    nonempty = counts > 0
    n_seq = nonempty.to(torch.float64).sum().clamp_min(1.0)
    if mode == "seq_mean_token_sum":
        per_seq = per_seq_sum
    elif mode == "seq_mean_token_mean":
        per_seq = per_seq_sum / counts.clamp_min(1.0)
    elif mode == "seq_mean_token_sum_norm":
        norm = float(L.shape[-1]) if norm_const is None else float(norm_const)
        if norm <= 0:
            raise ValueError(f"norm_const must be positive, got {norm}")
        per_seq = per_seq_sum / norm
    else:
        raise ValueError(f"unknown aggregation mode {mode!r}; expected one of {AGGREGATION_MODES}")
    return torch.where(nonempty, per_seq, torch.zeros((), dtype=per_seq.dtype)).sum() / n_seq

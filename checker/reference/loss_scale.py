"""Loss normalisation across gradient accumulation and data-parallel ranks: the scale each micro-batch's
loss needs so that summing gradients over a rank's micro-batches and averaging them over the ranks (what
DDP's all-reduce does) gives the gradient of the loss over the whole global batch.

loss_mat and loss_mask are [R, M, b, T]: R ranks, M micro-batches per rank, b rows, T tokens. For
token-mean the global loss is sum over every valid token / N (N valid tokens in the global batch), so
micro-batch (r, m) contributes R * (its token sum) / N; for seq-mean-token-mean each row's token mean,
over S rows in the global batch: R * (sum of its rows' means) / S. verl's `agg_loss` multiplies by
dp_size over a global token count the same way; a per-micro-batch mean divided by M is right only when
every micro-batch holds as many tokens (the gradient-accumulation bug of Hugging Face's blog post *Fixing
Gradient Accumulation*, 2024-10-16).
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64

MODES = ("token-mean", "seq-mean-token-mean")


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode: str = "token-mean") -> torch.Tensor:
    """[R, M] losses, one per micro-batch, scaled as above."""
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode!r}; expected one of {MODES}")
    L = f64(loss_mat)
    m = as_mask(loss_mask, L)
    R = L.shape[0]
    zero = torch.zeros((), dtype=torch.float64)
    picked = torch.where(m, L, zero)
    if loss_agg_mode == "token-mean":
        return R * picked.sum(dim=(-2, -1)) / m.to(torch.float64).sum().clamp_min(1.0)
    counts = m.to(torch.float64).sum(dim=-1)
    row_mean = torch.where(counts > 0, picked.sum(dim=-1) / counts.clamp_min(1.0), zero)
    rows = (counts > 0).to(torch.float64).sum().clamp_min(1.0)
    return R * row_mean.sum(dim=-1) / rows

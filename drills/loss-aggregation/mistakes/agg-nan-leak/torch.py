"""Reducing a per-token loss matrix to the scalar a trainer back-propagates: four aggregation modes."""
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    """loss_mat [B, T] float, loss_mask [B, T] bool (every row has a valid token) -> 0-d loss."""
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode!r}; expected one of {MODES}")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")

    # Select with where, not a product: NaN * 0 is NaN, so padding would leak into every sum.
    masked = loss_mat * loss_mask
    token_counts = loss_mask.sum(dim=-1)
    seq_sums = masked.sum(dim=-1)

    if loss_agg_mode == "token-mean":
        return masked.sum() / loss_mask.sum()

    if loss_agg_mode == "seq-mean-token-mean":
        return (seq_sums / token_counts).mean()

    if loss_agg_mode == "seq-mean-token-sum":
        return seq_sums.mean()

    # seq-mean-token-sum-norm (Dr. GRPO): one constant divisor for every sequence, then the batch mean.
    norm = loss_mat.shape[-1] if norm_const is None else norm_const
    return (seq_sums / norm).mean()

"""The loss each micro-batch calls backward on, so that accumulation and DDP's average give the global loss."""
import numpy as np


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    """Per-micro-batch losses [R, M] (see prompt.md).

    loss_mat: float array [R, M, b, T]; loss_mask: bool array [R, M, b, T], right-padded rows.
    """
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode!r}")
    ranks = loss_mat.shape[0]
    # Padding may hold NaN or inf: select, never multiply by the mask.
    picked = np.where(loss_mask, loss_mat, 0.0)

    if loss_agg_mode == "token-mean":
        # One normaliser for the whole global batch: every valid token of every rank and micro-batch.
        total_tokens = loss_mask.sum()
        micro = picked.sum(axis=(2, 3)) / total_tokens
    else:
        counts = loss_mask.sum(axis=-1)
        row_means = picked.sum(axis=-1) / np.maximum(counts, 1)
        # The same for rows: every row of the global batch.
        total_rows = (counts > 0).sum()
        micro = row_means.sum(axis=-1) / total_rows

    return micro.astype(loss_mat.dtype)

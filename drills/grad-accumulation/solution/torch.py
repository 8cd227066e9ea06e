"""The loss each micro-batch calls backward on, so that accumulation and DDP's average give the global loss."""
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    """Per-micro-batch losses [R, M] (see prompt.md).

    loss_mat: float tensor [R, M, b, T]; loss_mask: bool tensor [R, M, b, T], right-padded rows.
    """
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode!r}")
    ranks = loss_mat.shape[0]
    # Padding may hold NaN or inf: select, never multiply by the mask.
    picked = torch.where(loss_mask, loss_mat, torch.zeros((), dtype=loss_mat.dtype))

    if loss_agg_mode == "token-mean":
        # One normaliser for the whole global batch: every valid token of every rank and micro-batch.
        total_tokens = loss_mask.sum()
        micro = picked.sum(dim=(2, 3)) / total_tokens
    else:
        counts = loss_mask.sum(dim=-1)
        row_means = picked.sum(dim=-1) / counts.clamp(min=1)
        # The same for rows: every row of the global batch.
        total_rows = (counts > 0).sum()
        micro = row_means.sum(dim=-1) / total_rows

    # DDP averages gradients over the ranks, so each rank scales its share back up by their number.
    return ranks * micro

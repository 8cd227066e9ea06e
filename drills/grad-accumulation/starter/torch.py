"""Loss scaling across gradient accumulation and data-parallel ranks: write micro_batch_losses (see prompt.md)."""
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    """The loss each micro-batch calls backward on.

    Args:
        loss_mat: float tensor [R, M, b, T]: per-token losses of R data-parallel ranks, M micro-batches
            per rank (gradient accumulation steps), b rows of T tokens each.
        loss_mask: bool tensor [R, M, b, T], True on valid tokens; rows are right-padded and have at
            least one valid token. Padded positions of loss_mat may hold anything, NaN and inf included.
        loss_agg_mode: "token-mean" or "seq-mean-token-mean", the loss of the whole global batch.

    Returns:
        losses: float tensor [R, M] such that summing each rank's M losses and averaging over the R
        ranks gives the global batch's loss, and so does the gradient.

    Raises:
        ValueError: for any other loss_agg_mode.
    """
    raise NotImplementedError

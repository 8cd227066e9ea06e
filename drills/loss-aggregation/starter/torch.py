"""Loss aggregation: write agg_loss (see prompt.md)."""
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    """Reduce a per-token loss matrix over its valid tokens.

    Args:
        loss_mat: float tensor [B, T] (float32 or float64), the per-token loss; padded slots may hold
            anything, NaN and inf included.
        loss_mask: bool tensor [B, T], True on valid tokens; every row has at least one.
        loss_agg_mode: one of MODES.
        norm_const: the divisor of seq-mean-token-sum-norm; None means T = loss_mat.shape[-1].

    Returns:
        a 0-d tensor (gradient flows into loss_mat).

    Raises:
        ValueError: for an unknown loss_agg_mode or a norm_const that is not positive.
    """
    raise NotImplementedError

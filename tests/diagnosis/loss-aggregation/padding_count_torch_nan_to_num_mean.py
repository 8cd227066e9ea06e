# expect: agg-padding-in-count
# framework: torch
# style: padding zeroed with masked_fill, then .mean() for token-mean
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"}:
        raise ValueError("unknown loss_agg_mode")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")
    clean = loss_mat.masked_fill(~loss_mask, 0.0)
    if loss_agg_mode == "token-mean":
        return clean.mean()
    sums = clean.sum(dim=1)
    if loss_agg_mode == "seq-mean-token-mean":
        return (sums / loss_mask.sum(dim=1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return sums.mean()
    return (sums / (clean.shape[1] if norm_const is None else norm_const)).mean()

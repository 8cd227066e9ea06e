# expect: agg-padding-in-count
# framework: torch
# style: token-mean divided by B * T written out
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    B, T = loss_mat.shape
    safe = loss_mat.masked_fill(~loss_mask, 0.0)
    seq_sum = safe.sum(dim=1)
    if loss_agg_mode == "token-mean":
        return seq_sum.sum() / (B * T)
    elif loss_agg_mode == "seq-mean-token-mean":
        return (seq_sum / loss_mask.sum(dim=1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        return seq_sum.mean()
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        return (seq_sum / (T if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

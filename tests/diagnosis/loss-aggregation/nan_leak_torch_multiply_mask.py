# expect: agg-nan-leak
# framework: torch
# style: masking by multiplication
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    m = loss_mask.to(loss_mat.dtype)
    per_row = (loss_mat * m).sum(dim=-1)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        return (per_row / m.sum(dim=-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return per_row.mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (per_row / (loss_mat.shape[-1] if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

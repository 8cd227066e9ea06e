# expect: agg-token-mean-per-row
# framework: torch
# style: token-mean computed row by row
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    x = torch.where(loss_mask, loss_mat, torch.zeros((), dtype=loss_mat.dtype))
    row_sum, row_len = x.sum(1), loss_mask.sum(1)
    if loss_agg_mode in ("token-mean", "seq-mean-token-mean"):
        return (row_sum / row_len).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return row_sum.mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (row_sum / (x.shape[1] if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

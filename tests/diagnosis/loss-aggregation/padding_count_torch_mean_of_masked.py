# expect: agg-padding-in-count
# framework: torch
# style: token-mean as the mean of the zero-filled matrix
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    filled = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        return filled.mean()
    if loss_agg_mode == "seq-mean-token-mean":
        return (filled.sum(-1) / loss_mask.sum(-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return filled.sum(-1).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (filled.sum(-1) / (filled.shape[-1] if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

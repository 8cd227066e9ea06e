# expect: agg-nan-leak
# framework: torch
# style: verl's masked_mean / masked_sum as written ((values * mask).sum())
import torch


def masked_sum(values, mask, axis=None):
    return (values * mask).sum(axis=axis) if axis is not None else (values * mask).sum()


def masked_mean(values, mask, axis=None):
    if axis is None:
        return masked_sum(values, mask) / mask.sum()
    return masked_sum(values, mask, axis) / mask.sum(axis=axis)


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    if loss_agg_mode == "token-mean":
        return masked_mean(loss_mat, loss_mask)
    if loss_agg_mode == "seq-mean-token-mean":
        return masked_mean(loss_mat, loss_mask, axis=-1).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return masked_sum(loss_mat, loss_mask, axis=-1).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (masked_sum(loss_mat, loss_mask, axis=-1) / (norm_const or loss_mat.shape[-1])).mean()
    raise ValueError(loss_agg_mode)

# expect: agg-nan-leak
# framework: torch
# style: every mode built on loss_mat * mask
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    m = loss_mask.to(loss_mat.dtype)
    masked = loss_mat * m
    S = masked.sum(-1)
    n = m.sum(-1)
    if loss_agg_mode == "token-mean":
        return masked.sum() / m.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        return (S / n).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return S.mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (S / (loss_mat.shape[-1] if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

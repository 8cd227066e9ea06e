# expect: agg-padding-in-count
# framework: numpy
# style: divide by B * T
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    B, T = loss_mat.shape
    clean = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return float(clean.sum() / (B * T))
    row = clean.sum(axis=1)
    if loss_agg_mode == "seq-mean-token-mean":
        return float((row / loss_mask.sum(axis=1)).mean())
    if loss_agg_mode == "seq-mean-token-sum":
        return float(row.mean())
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return float((row / (T if norm_const is None else norm_const)).mean())
    raise ValueError(loss_agg_mode)

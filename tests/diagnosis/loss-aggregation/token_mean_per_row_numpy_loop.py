# expect: agg-token-mean-per-row
# framework: numpy
# style: loop, one mean per response for token-mean
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    B, T = loss_mat.shape
    if loss_agg_mode == "token-mean":
        return float(np.mean([loss_mat[b][loss_mask[b]].mean() for b in range(B)]))
    if loss_agg_mode == "seq-mean-token-mean":
        return float(np.mean([loss_mat[b][loss_mask[b]].mean() for b in range(B)]))
    if loss_agg_mode == "seq-mean-token-sum":
        return float(np.mean([loss_mat[b][loss_mask[b]].sum() for b in range(B)]))
    if loss_agg_mode == "seq-mean-token-sum-norm":
        c = T if norm_const is None else norm_const
        return float(np.mean([loss_mat[b][loss_mask[b]].sum() / c for b in range(B)]))
    raise ValueError(loss_agg_mode)

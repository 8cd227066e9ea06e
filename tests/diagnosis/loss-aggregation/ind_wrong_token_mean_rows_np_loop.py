# expect: agg-token-mean-per-row
# framework: numpy
# style: NumPy loop; token-mean accumulates each row's average
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    B, T = loss_mat.shape
    c = T if norm_const is None else norm_const
    acc = 0.0
    for b in range(B):
        row = loss_mat[b][loss_mask[b]]
        if loss_agg_mode in ("token-mean", "seq-mean-token-mean"):
            acc += row.mean()
        elif loss_agg_mode == "seq-mean-token-sum":
            acc += row.sum()
        else:
            acc += row.sum() / c
    return float(acc / B)

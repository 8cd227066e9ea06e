# expect: right
# framework: numpy
# style: NumPy, explicit loops with Python floats
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"}:
        raise ValueError(loss_agg_mode)
    if norm_const is not None and not (norm_const > 0):
        raise ValueError(norm_const)
    B, T = loss_mat.shape
    row_sum, row_n = [], []
    for b in range(B):
        s, n = 0.0, 0
        for t in range(T):
            if loss_mask[b, t]:
                s += float(loss_mat[b, t])
                n += 1
        row_sum.append(s)
        row_n.append(n)
    if loss_agg_mode == "token-mean":
        return sum(row_sum) / sum(row_n)
    if loss_agg_mode == "seq-mean-token-mean":
        return sum(s / n for s, n in zip(row_sum, row_n)) / B
    if loss_agg_mode == "seq-mean-token-sum":
        return sum(row_sum) / B
    c = T if norm_const is None else norm_const
    return sum(s / c for s in row_sum) / B

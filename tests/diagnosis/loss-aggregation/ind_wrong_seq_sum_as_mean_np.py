# expect: agg-seq-sum-as-seq-mean
# framework: numpy
# style: NumPy, per-row "sum" taken with np.mean over the row's tokens
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    rows = [loss_mat[b][loss_mask[b]] for b in range(loss_mat.shape[0])]
    if loss_agg_mode == "token-mean":
        return float(np.concatenate(rows).mean())
    if loss_agg_mode == "seq-mean-token-mean":
        return float(np.mean([r.mean() for r in rows]))
    if loss_agg_mode == "seq-mean-token-sum":
        return float(np.mean([np.mean(r) for r in rows]))
    if loss_agg_mode == "seq-mean-token-sum-norm":
        c = loss_mat.shape[1] if norm_const is None else norm_const
        return float(np.mean([r.sum() / c for r in rows]))
    raise ValueError(loss_agg_mode)

# expect: agg-nan-leak
# framework: numpy
# style: float mask, products everywhere
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    mf = loss_mask.astype(float)
    if loss_agg_mode == "token-mean":
        return float(np.sum(loss_mat * mf) / np.sum(mf))
    sums = np.sum(loss_mat * mf, axis=1)
    if loss_agg_mode == "seq-mean-token-mean":
        return float(np.mean(sums / mf.sum(axis=1)))
    if loss_agg_mode == "seq-mean-token-sum":
        return float(np.mean(sums))
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return float(np.mean(sums / (loss_mat.shape[1] if norm_const is None else norm_const)))
    raise ValueError("unknown mode")

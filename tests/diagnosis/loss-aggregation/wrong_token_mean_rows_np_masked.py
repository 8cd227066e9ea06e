# expect: agg-token-mean-per-row
# framework: numpy
# style: NumPy, token-mean averaged per row with np.mean(axis=1) on masked arrays
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    ma = np.ma.masked_array(np.where(loss_mask, loss_mat, 0.0), mask=~loss_mask)
    if loss_agg_mode == "token-mean":
        return float(ma.mean(axis=1).mean())
    if loss_agg_mode == "seq-mean-token-mean":
        return float(ma.mean(axis=1).mean())
    if loss_agg_mode == "seq-mean-token-sum":
        return float(ma.sum(axis=1).mean())
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return float((ma.sum(axis=1) / (loss_mat.shape[1] if norm_const is None else norm_const)).mean())
    raise ValueError(loss_agg_mode)

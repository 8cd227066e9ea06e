# expect: agg-sum-norm-no-batch-mean
# framework: numpy
# style: NumPy, total masked sum divided by the constant
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    clean = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return float(clean.sum() / loss_mask.sum())
    if loss_agg_mode == "seq-mean-token-mean":
        return float((clean.sum(1) / loss_mask.sum(1)).mean())
    if loss_agg_mode == "seq-mean-token-sum":
        return float(clean.sum(1).mean())
    if loss_agg_mode == "seq-mean-token-sum-norm":
        c = clean.shape[1] if norm_const is None else norm_const
        return float(clean.sum() / c)
    raise ValueError(loss_agg_mode)

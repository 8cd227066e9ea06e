# expect: agg-sum-norm-no-batch-mean
# framework: numpy
# style: the whole masked total divided by the constant
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    v = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return float(v.sum() / loss_mask.sum())
    if loss_agg_mode == "seq-mean-token-mean":
        return float(np.mean(v.sum(1) / loss_mask.sum(1)))
    if loss_agg_mode == "seq-mean-token-sum":
        return float(np.mean(v.sum(1)))
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return float(v.sum() / (v.shape[1] if norm_const is None else norm_const))
    raise ValueError("mode")

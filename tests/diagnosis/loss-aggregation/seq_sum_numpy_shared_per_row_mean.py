# expect: agg-seq-sum-as-seq-mean
# framework: numpy
# style: both seq-mean modes share the per-row mean
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    valid = np.where(loss_mask, loss_mat, 0.0)
    counts = loss_mask.sum(axis=1)
    if loss_agg_mode == "token-mean":
        return float(valid.sum() / counts.sum())
    if loss_agg_mode in ("seq-mean-token-mean", "seq-mean-token-sum"):
        return float((valid.sum(axis=1) / counts).mean())
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return float((valid.sum(axis=1) / (loss_mat.shape[1] if norm_const is None else norm_const)).mean())
    raise ValueError("mode")

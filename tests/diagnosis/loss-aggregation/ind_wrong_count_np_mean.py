# expect: agg-padding-in-count
# framework: numpy
# style: NumPy, np.mean over the zero-filled matrix for token-mean
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const")
    clean = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return float(np.mean(clean))
    S = clean.sum(1)
    if loss_agg_mode == "seq-mean-token-mean":
        return float(np.mean(S / loss_mask.sum(1)))
    if loss_agg_mode == "seq-mean-token-sum":
        return float(np.mean(S))
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return float(np.mean(S / (clean.shape[1] if norm_const is None else norm_const)))
    raise ValueError(loss_agg_mode)

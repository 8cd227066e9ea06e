# expect: right
# framework: numpy
# style: per-token weight matrix, then one weighted sum
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    B, T = loss_mask.shape
    m = loss_mask.astype(np.float64)
    if loss_agg_mode == "token-mean":
        w = m / m.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        w = m / m.sum(axis=1, keepdims=True) / B
    elif loss_agg_mode == "seq-mean-token-sum":
        w = m / B
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        if norm_const is not None and norm_const <= 0:
            raise ValueError("norm_const must be positive")
        w = m / (T if norm_const is None else norm_const) / B
    else:
        raise ValueError("unknown loss_agg_mode")
    safe = np.where(loss_mask, loss_mat, 0.0)
    return float(np.einsum("bt,bt->", w, safe))

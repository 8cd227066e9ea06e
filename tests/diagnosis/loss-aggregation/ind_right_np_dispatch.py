# expect: right
# framework: numpy
# style: NumPy dict of reducers on np.where-cleaned sums
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    T = loss_mat.shape[-1]
    clean = np.where(loss_mask, loss_mat, 0.0)
    S = clean.sum(axis=-1)
    n = loss_mask.sum(axis=-1)
    reducers = {
        "token-mean": lambda: S.sum() / n.sum(),
        "seq-mean-token-mean": lambda: (S / n).mean(),
        "seq-mean-token-sum": lambda: S.mean(),
        "seq-mean-token-sum-norm": lambda: (S / (T if norm_const is None else norm_const)).mean(),
    }
    if loss_agg_mode not in reducers:
        raise ValueError(f"unknown loss_agg_mode: {loss_agg_mode}")
    return float(reducers[loss_agg_mode]())

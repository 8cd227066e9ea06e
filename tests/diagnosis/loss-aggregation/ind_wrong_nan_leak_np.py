# expect: agg-nan-leak
# framework: numpy
# style: NumPy, float mask multiplied in
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if norm_const is not None and norm_const <= 0:
        raise ValueError(norm_const)
    fm = loss_mask.astype(loss_mat.dtype)
    with np.errstate(invalid="ignore"):
        S = (loss_mat * fm).sum(axis=1)
    n = fm.sum(axis=1)
    if loss_agg_mode == "token-mean":
        return float(S.sum() / n.sum())
    if loss_agg_mode == "seq-mean-token-mean":
        return float((S / n).mean())
    if loss_agg_mode == "seq-mean-token-sum":
        return float(S.mean())
    return float((S / (norm_const or loss_mat.shape[1])).mean())

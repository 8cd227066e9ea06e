# expect: agg-nan-leak
# framework: numpy
# style: NumPy masked sums as products
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError("mode")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const")
    m = loss_mask.astype(loss_mat.dtype)
    with np.errstate(invalid="ignore"):
        rows = (loss_mat * m).sum(-1)
    if loss_agg_mode == "token-mean":
        return float(rows.sum() / m.sum())
    if loss_agg_mode == "seq-mean-token-mean":
        return float((rows / m.sum(-1)).mean())
    if loss_agg_mode == "seq-mean-token-sum":
        return float(rows.mean())
    return float((rows / (loss_mat.shape[-1] if norm_const is None else norm_const)).mean())

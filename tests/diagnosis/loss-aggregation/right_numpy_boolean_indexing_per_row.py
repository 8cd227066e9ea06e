# expect: right
# framework: numpy
# style: boolean indexing, a list of per-row values
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    modes = {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"}
    if loss_agg_mode not in modes:
        raise ValueError(loss_agg_mode)
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const")
    if loss_agg_mode == "token-mean":
        return float(loss_mat[loss_mask].astype(np.float64).mean())
    rows = [loss_mat[b][loss_mask[b]].astype(np.float64) for b in range(loss_mat.shape[0])]
    if loss_agg_mode == "seq-mean-token-mean":
        per_row = [r.mean() for r in rows]
    elif loss_agg_mode == "seq-mean-token-sum":
        per_row = [r.sum() for r in rows]
    else:
        denom = loss_mat.shape[1] if norm_const is None else norm_const
        per_row = [r.sum() / denom for r in rows]
    return float(np.mean(per_row))

# expect: right
# framework: numpy
# style: NumPy, per-row sums from boolean indexing
import numpy as np

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode!r}")
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be > 0")
    sums = np.array([loss_mat[b][loss_mask[b]].sum() for b in range(loss_mat.shape[0])])
    counts = loss_mask.sum(axis=1)
    if loss_agg_mode == "token-mean":
        return float(sums.sum() / counts.sum())
    if loss_agg_mode == "seq-mean-token-mean":
        return float(np.mean(sums / counts))
    if loss_agg_mode == "seq-mean-token-sum":
        return float(np.mean(sums))
    c = loss_mat.shape[-1] if norm_const is None else norm_const
    return float(np.mean(sums / c))

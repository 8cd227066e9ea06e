# expect: right
# framework: numpy
# style: NumPy list of per-row valid tokens
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")
    rows = [loss_mat[b][loss_mask[b]].astype(np.float64) for b in range(loss_mat.shape[0])]
    if loss_agg_mode == "token-mean":
        return float(np.concatenate(rows).mean())
    if loss_agg_mode == "seq-mean-token-mean":
        return float(np.mean([r.mean() for r in rows]))
    if loss_agg_mode == "seq-mean-token-sum":
        return float(np.mean([r.sum() for r in rows]))
    c = loss_mat.shape[-1] if norm_const is None else norm_const
    return float(np.mean([r.sum() / c for r in rows]))

# expect: agg-sum-norm-no-batch-mean
# framework: numpy
# style: verl's sum over rows divided by the constant
import numpy as np


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")
    x = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return float(x.sum() / loss_mask.sum())
    seq = x.sum(-1)
    if loss_agg_mode == "seq-mean-token-mean":
        return float((seq / loss_mask.sum(-1)).mean())
    if loss_agg_mode == "seq-mean-token-sum":
        return float(seq.mean())
    return float(seq.sum() / (loss_mat.shape[-1] if norm_const is None else norm_const))

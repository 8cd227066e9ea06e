# expect: right
# framework: numpy
# style: einsum reductions, one global normaliser
import numpy as np


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R = loss_mat.shape[0]
    w = loss_mask.astype(np.float64)
    x = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return R * np.einsum("rmbt->rm", x) / w.sum()
    rows = w.sum(-1)
    means = x.sum(-1) / np.where(rows > 0, rows, 1.0)
    return R * means.sum(-1) / (rows > 0).sum()

# expect: accum-mean-of-means
# framework: numpy
# style: vectorised micro-batch means averaged over the accumulation steps
import numpy as np


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R, M = loss_mat.shape[:2]
    x = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        micro = x.sum(axis=(2, 3)) / loss_mask.sum(axis=(2, 3))
    else:
        row_means = x.sum(-1) / loss_mask.sum(-1)
        micro = row_means.mean(-1)
    return R * micro / M

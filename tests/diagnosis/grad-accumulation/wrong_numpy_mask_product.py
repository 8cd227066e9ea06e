# expect: accum-mask-multiplied
# framework: numpy
# style: the masked sum as loss_mat * loss_mask
import numpy as np


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R = loss_mat.shape[0]
    x = loss_mat * loss_mask
    if loss_agg_mode == "token-mean":
        return R * x.sum(axis=(2, 3)) / loss_mask.sum()
    lengths = loss_mask.sum(-1)
    return R * (x.sum(-1) / np.maximum(lengths, 1)).sum(-1) / (lengths > 0).sum()

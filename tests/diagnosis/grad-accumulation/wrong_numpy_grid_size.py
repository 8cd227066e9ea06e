# expect: accum-padding-counted
# framework: numpy
# style: N taken as the number of slots of the padded tensor
import numpy as np


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R = loss_mat.shape[0]
    x = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return R * x.sum(axis=(2, 3)) / loss_mat.size
    lengths = loss_mask.sum(-1)
    return R * (x.sum(-1) / np.maximum(lengths, 1)).sum(-1) / (lengths > 0).sum()

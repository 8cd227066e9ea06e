# expect: accum-no-dp-scale
# framework: numpy
# style: a single-GPU formula reused under DDP
import numpy as np


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    picked = np.where(loss_mask, loss_mat, 0.0)
    if loss_agg_mode == "token-mean":
        return picked.sum(axis=(-2, -1)) / np.count_nonzero(loss_mask)
    lengths = loss_mask.sum(-1)
    return (picked.sum(-1) / np.maximum(lengths, 1)).sum(-1) / np.count_nonzero(lengths)

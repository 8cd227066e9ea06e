# expect: right
# framework: numpy
# style: explicit loops over ranks and micro-batches, counting first
import numpy as np


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(f"unknown mode {loss_agg_mode}")
    R, M = loss_mask.shape[:2]
    total_tokens = int(loss_mask.sum())
    total_rows = int((loss_mask.sum(axis=-1) > 0).sum())
    out = np.zeros((R, M))
    for r in range(R):
        for m in range(M):
            acc = 0.0
            for row, valid in zip(loss_mat[r, m], loss_mask[r, m]):
                vals = row[valid]
                if loss_agg_mode == "token-mean":
                    acc += vals.sum() / total_tokens
                elif vals.size:
                    acc += vals.mean() / total_rows
            out[r, m] = R * acc
    return out

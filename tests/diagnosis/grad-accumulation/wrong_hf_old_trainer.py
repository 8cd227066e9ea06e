# expect: accum-mean-of-means
# framework: torch
# style: the pre-2024 transformers Trainer: each micro-batch's mean divided by the accumulation steps
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R, M = loss_mat.shape[:2]
    out = torch.zeros(R, M, dtype=loss_mat.dtype)
    for r in range(R):
        for k in range(M):
            lm, mk = loss_mat[r, k], loss_mask[r, k]
            if loss_agg_mode == "token-mean":
                micro = lm[mk].mean()
            else:
                micro = torch.stack([row[msk].mean() for row, msk in zip(lm, mk)]).mean()
            out[r, k] = R * micro / M
    return out

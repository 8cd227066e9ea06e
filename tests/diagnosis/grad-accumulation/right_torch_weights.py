# expect: right
# framework: torch
# style: per-token weights built once, then one weighted sum per micro-batch
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R = loss_mat.shape[0]
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        weights = m / m.sum()
    else:
        counts = m.sum(-1, keepdim=True)
        rows = (counts > 0).to(loss_mat.dtype).sum()
        weights = m / counts.clamp(min=1) / rows
    contrib = torch.where(loss_mask, loss_mat * weights, torch.zeros_like(loss_mat))
    return R * contrib.sum(dim=(-2, -1))

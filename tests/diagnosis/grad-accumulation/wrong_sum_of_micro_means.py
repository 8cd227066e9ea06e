# expect: accum-missing-steps-division
# framework: torch
# style: each micro-batch's own token mean, summed by accumulation, scaled for DDP
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R = loss_mat.shape[0]
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        return R * x.sum(dim=(2, 3)) / loss_mask.sum(dim=(2, 3))
    n = loss_mask.sum(-1)
    return R * (x.sum(-1) / n.clamp(min=1)).sum(-1) / (n > 0).sum()

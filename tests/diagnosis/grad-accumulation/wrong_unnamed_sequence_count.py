# expect:
# expect-unnamed: the losses with seq-mean-token-mean
# framework: torch
# style: seq-mean-token-mean divided by the global token count instead of the row count
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R = loss_mat.shape[0]
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        return R * x.sum(dim=(2, 3)) / loss_mask.sum()
    n = loss_mask.sum(-1)
    return R * (x.sum(-1) / n.clamp(min=1)).sum(-1) / loss_mask.sum()

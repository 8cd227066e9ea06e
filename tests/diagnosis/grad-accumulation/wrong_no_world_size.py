# expect: accum-no-dp-scale
# framework: torch
# style: global token count, but the all-reduce average left in place
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        return x.sum(dim=(2, 3)) / loss_mask.sum()
    n = loss_mask.sum(-1)
    return (x.sum(-1) / n.clamp(min=1)).sum(-1) / (n > 0).sum()

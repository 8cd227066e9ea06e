# expect: accum-local-count
# framework: torch
# style: each rank normalises by the tokens it holds, DDP averages the ranks
import torch


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    R = loss_mat.shape[0]
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        local_tokens = loss_mask.sum(dim=(1, 2, 3), keepdim=True).squeeze(-1).squeeze(-1)
        return x.sum(dim=(2, 3)) / local_tokens
    n = loss_mask.sum(-1)
    return R * (x.sum(-1) / n.clamp(min=1)).sum(-1) / (n > 0).sum()

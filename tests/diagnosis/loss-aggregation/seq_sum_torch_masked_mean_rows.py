# expect: agg-seq-sum-as-seq-mean
# framework: torch
# style: per-row masked mean helper reused for the sum mode
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def _row_mean(x, m):
    return torch.where(m, x, torch.zeros_like(x)).sum(-1) / m.sum(-1)


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in MODES:
        raise ValueError(loss_agg_mode)
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const")
    if loss_agg_mode == "token-mean":
        return loss_mat[loss_mask].sum() / loss_mask.sum()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        div = loss_mat.shape[-1] if norm_const is None else norm_const
        return (torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat)).sum(-1) / div).mean()
    return _row_mean(loss_mat, loss_mask).mean()

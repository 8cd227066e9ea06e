# expect: agg-token-mean-per-row
# framework: torch
# style: OpenRLHF masked_mean(dim=-1) then .mean() for token-mean
import torch


def masked_mean(tensor, mask, dim=None):
    t = torch.where(mask, tensor, torch.zeros_like(tensor))
    if dim is None:
        return t.sum() / mask.sum()
    return t.sum(dim=dim) / mask.sum(dim=dim)


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    if loss_agg_mode == "token-mean":
        return masked_mean(loss_mat, loss_mask, dim=-1).mean()
    if loss_agg_mode == "seq-mean-token-mean":
        return masked_mean(loss_mat, loss_mask, dim=-1).mean()
    safe = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "seq-mean-token-sum":
        return safe.sum(-1).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (safe.sum(-1) / (norm_const if norm_const is not None else loss_mat.shape[-1])).mean()
    raise ValueError(loss_agg_mode)

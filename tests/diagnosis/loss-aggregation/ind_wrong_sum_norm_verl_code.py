# expect: agg-sum-norm-no-batch-mean
# framework: torch
# style: verl's agg_loss code for sum-norm: sum over the batch / norm_const
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    seq = x.sum(dim=-1)
    if loss_agg_mode == "token-mean":
        return x.sum() / loss_mask.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        return torch.mean(seq / loss_mask.sum(-1))
    if loss_agg_mode == "seq-mean-token-sum":
        return torch.mean(seq)
    if loss_agg_mode == "seq-mean-token-sum-norm":
        if norm_const is None:
            norm_const = loss_mat.shape[-1]
        return torch.sum(seq) / norm_const
    raise ValueError(f"Invalid loss_agg_mode: {loss_agg_mode}")

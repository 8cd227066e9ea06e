# expect: agg-sum-norm-no-batch-mean
# framework: torch
# style: verl's agg_loss code path for seq-mean-token-sum-norm
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    masked = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        return masked.sum() / loss_mask.sum()
    seq_losses = masked.sum(dim=-1)
    if loss_agg_mode == "seq-mean-token-sum":
        return seq_losses.mean()
    if loss_agg_mode == "seq-mean-token-mean":
        return (seq_losses / loss_mask.sum(dim=-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        loss_scale_factor = loss_mask.shape[-1] if norm_const is None else norm_const
        return torch.sum(seq_losses) / loss_scale_factor
    raise ValueError(f"invalid loss_agg_mode {loss_agg_mode}")

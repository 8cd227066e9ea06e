# expect: right
# framework: torch
# style: verl agg_loss with masked_sum / masked_mean helpers built on torch.where
import torch


def masked_sum(values, mask, axis=None):
    v = torch.where(mask, values, torch.zeros_like(values))
    return v.sum() if axis is None else v.sum(dim=axis)


def masked_mean(values, mask, axis=None):
    return masked_sum(values, mask, axis) / (mask.sum() if axis is None else mask.sum(dim=axis))


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and not norm_const > 0:
        raise ValueError(f"norm_const must be positive, got {norm_const}")
    if loss_agg_mode == "token-mean":
        loss = masked_mean(loss_mat, loss_mask)
    elif loss_agg_mode == "seq-mean-token-sum":
        seq_losses = masked_sum(loss_mat, loss_mask, axis=-1)
        loss = torch.mean(seq_losses)
    elif loss_agg_mode == "seq-mean-token-mean":
        seq_losses = masked_sum(loss_mat, loss_mask, axis=-1) / loss_mask.sum(dim=-1)
        loss = torch.mean(seq_losses)
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        const = loss_mat.shape[-1] if norm_const is None else norm_const
        seq_losses = masked_sum(loss_mat, loss_mask, axis=-1) / const
        loss = torch.mean(seq_losses)
    else:
        raise ValueError(f"Invalid loss_agg_mode: {loss_agg_mode}")
    return loss

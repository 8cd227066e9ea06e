# expect: right
# framework: torch
# style: verl idiom (masked_sum / masked_mean helpers with torch.where)
import torch


def masked_sum(values, mask, axis=None):
    valid = torch.where(mask, values, torch.zeros_like(values))
    return valid.sum() if axis is None else valid.sum(dim=axis)


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be > 0")
    if loss_agg_mode == "token-mean":
        return masked_sum(loss_mat, loss_mask) / loss_mask.sum()
    seq_len = loss_mask.sum(dim=-1)
    if loss_agg_mode == "seq-mean-token-sum":
        return masked_sum(loss_mat, loss_mask, axis=-1).mean()
    if loss_agg_mode == "seq-mean-token-mean":
        return (masked_sum(loss_mat, loss_mask, axis=-1) / seq_len).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        scale = loss_mask.shape[-1] if norm_const is None else norm_const
        return (masked_sum(loss_mat, loss_mask, axis=-1) / scale).mean()
    raise ValueError(f"Invalid loss_agg_mode: {loss_agg_mode}")

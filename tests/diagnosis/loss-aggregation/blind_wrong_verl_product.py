# expect: agg-nan-leak
# framework: torch
# style: verl's masked_sum as (values * mask).sum()
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")
    m = loss_mask.to(loss_mat.dtype)
    if loss_agg_mode == "token-mean":
        return (loss_mat * m).sum() / m.sum()
    seq = (loss_mat * m).sum(dim=-1)
    if loss_agg_mode == "seq-mean-token-mean":
        return (seq / m.sum(dim=-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return seq.mean()
    return (seq / (loss_mat.shape[-1] if norm_const is None else norm_const)).mean()

# expect: right
# framework: torch
# style: masked_fill the padding first, then multiplying by the mask is safe
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    clean = loss_mat.masked_fill(~loss_mask, 0.0)
    m = loss_mask.float().to(loss_mat.dtype)
    per_seq = (clean * m).sum(dim=1)
    if loss_agg_mode == "token-mean":
        return (clean * m).sum() / m.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        return (per_seq / m.sum(dim=1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return per_seq.mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (per_seq / (norm_const if norm_const is not None else loss_mat.size(-1))).mean()
    raise ValueError(f"unknown mode {loss_agg_mode}")

# expect: right
# framework: torch
# style: one weight per token for each mode, loss = sum(weights * where(mask, loss, 0))
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    B, T = loss_mat.shape
    m = loss_mask.to(loss_mat.dtype)
    n_b = m.sum(-1, keepdim=True)
    if loss_agg_mode == "token-mean":
        w = m / m.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        w = m / n_b / B
    elif loss_agg_mode == "seq-mean-token-sum":
        w = m / B
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        w = m / (T if norm_const is None else norm_const) / B
    else:
        raise ValueError(loss_agg_mode)
    safe = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    return (w * safe).sum()

# expect:
# expect-unnamed: norm_const defaults to the longest valid length in the batch instead of the padded length T
# framework: torch
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    S, n = x.sum(-1), loss_mask.sum(-1)
    if loss_agg_mode == "token-mean":
        return S.sum() / n.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        return (S / n).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return S.mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        c = n.max() if norm_const is None else norm_const
        return (S / c).mean()
    raise ValueError(loss_agg_mode)

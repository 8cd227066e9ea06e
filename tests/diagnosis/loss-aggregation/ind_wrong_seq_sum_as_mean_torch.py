# expect: agg-seq-sum-as-seq-mean
# framework: torch
# style: seq-mean-token-sum shares the seq-mean-token-mean branch
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        return x.sum() / loss_mask.sum()
    if loss_agg_mode in ("seq-mean-token-mean", "seq-mean-token-sum"):
        return (x.sum(-1) / loss_mask.sum(-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (x.sum(-1) / (x.shape[-1] if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

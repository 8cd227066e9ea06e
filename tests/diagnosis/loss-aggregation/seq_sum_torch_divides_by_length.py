# expect: agg-seq-sum-as-seq-mean
# framework: torch
# style: if/elif chain, the sum branch normalised by length
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    x = torch.where(loss_mask, loss_mat, torch.zeros((), dtype=loss_mat.dtype))
    lengths = loss_mask.sum(-1)
    if loss_agg_mode == "token-mean":
        return x.sum() / lengths.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        return (x.sum(-1) / lengths).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        seq_losses = x.sum(-1) / lengths
        return seq_losses.mean()
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        return (x.sum(-1) / (x.shape[-1] if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

# expect: agg-seq-sum-as-seq-mean
# framework: torch
# style: seq-mean-token-sum averaged per row
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")
    x = torch.where(loss_mask, loss_mat, torch.zeros((), dtype=loss_mat.dtype))
    seq = x.sum(-1)
    n = loss_mask.sum(-1)
    if loss_agg_mode == "token-mean":
        return seq.sum() / n.sum()
    if loss_agg_mode in ("seq-mean-token-mean", "seq-mean-token-sum"):
        return (seq / n).mean()
    return (seq / (loss_mat.shape[-1] if norm_const is None else norm_const)).mean()

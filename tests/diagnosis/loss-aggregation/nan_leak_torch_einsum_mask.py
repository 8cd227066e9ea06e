# expect: agg-nan-leak
# framework: torch
# style: einsum with the mask as weights
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    modes = ["token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"]
    if loss_agg_mode not in modes:
        raise ValueError(loss_agg_mode)
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const")
    w = loss_mask.to(loss_mat.dtype)
    row_sums = torch.einsum("bt,bt->b", loss_mat, w)
    if loss_agg_mode == "token-mean":
        return row_sums.sum() / w.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        return (row_sums / w.sum(-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return row_sums.mean()
    return (row_sums / (loss_mat.shape[-1] if norm_const is None else norm_const)).mean()

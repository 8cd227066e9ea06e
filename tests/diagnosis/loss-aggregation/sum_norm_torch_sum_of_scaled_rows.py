# expect: agg-sum-norm-no-batch-mean
# framework: torch
# style: each row scaled, then summed over the batch
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const")
    z = torch.zeros((), dtype=loss_mat.dtype)
    per_row = torch.where(loss_mask, loss_mat, z).sum(-1)
    if loss_agg_mode == "token-mean":
        return per_row.sum() / loss_mask.sum()
    if loss_agg_mode == "seq-mean-token-mean":
        return (per_row / loss_mask.sum(-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return per_row.mean()
    norm = float(loss_mat.shape[-1]) if norm_const is None else float(norm_const)
    return (per_row / norm).sum()

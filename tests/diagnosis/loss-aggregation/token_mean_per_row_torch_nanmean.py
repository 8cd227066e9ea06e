# expect: agg-token-mean-per-row
# framework: torch
# style: nanmean over rows with padding turned into NaN
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")
    nan = torch.tensor(float("nan"), dtype=loss_mat.dtype)
    padded_nan = torch.where(loss_mask, loss_mat, nan)
    sums = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat)).sum(-1)
    if loss_agg_mode == "token-mean":
        return padded_nan.nanmean(dim=-1).mean()
    if loss_agg_mode == "seq-mean-token-mean":
        return padded_nan.nanmean(dim=-1).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return sums.mean()
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return (sums / (loss_mat.shape[-1] if norm_const is None else norm_const)).mean()
    raise ValueError(loss_agg_mode)

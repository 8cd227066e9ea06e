# expect: right
# framework: torch
# style: verl's agg_loss with masked_sum helpers (where instead of a product)
import torch


def masked_sum(x, mask, dim=None):
    x = torch.where(mask, x, torch.zeros((), dtype=x.dtype))
    return x.sum() if dim is None else x.sum(dim=dim)


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if norm_const is not None and not norm_const > 0:
        raise ValueError("norm_const must be positive")
    if loss_agg_mode == "token-mean":
        return masked_sum(loss_mat, loss_mask) / loss_mask.sum()
    seq_losses = masked_sum(loss_mat, loss_mask, dim=-1)
    if loss_agg_mode == "seq-mean-token-mean":
        return (seq_losses / loss_mask.sum(dim=-1)).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return seq_losses.mean()
    denom = loss_mat.shape[-1] if norm_const is None else norm_const
    return (seq_losses / denom).mean()

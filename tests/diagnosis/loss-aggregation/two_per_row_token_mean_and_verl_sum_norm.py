# expect: agg-token-mean-per-row agg-sum-norm-no-batch-mean
# framework: torch
# style: token-mean averaged per response, sum-norm as verl's code writes it
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    x = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    seq_sum = x.sum(dim=-1)
    seq_len = loss_mask.sum(dim=-1)
    if loss_agg_mode in ("token-mean", "seq-mean-token-mean"):
        return (seq_sum / seq_len).mean()
    if loss_agg_mode == "seq-mean-token-sum":
        return seq_sum.mean()
    return seq_sum.sum() / (loss_mask.shape[-1] if norm_const is None else norm_const)

# expect: agg-sum-norm-no-batch-mean
# framework: torch
# style: running total over rows, each divided by the constant, never averaged
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    B, T = loss_mat.shape
    c = T if norm_const is None else norm_const
    total = loss_mat.new_zeros(())
    rows = []
    for b in range(B):
        s = torch.masked_select(loss_mat[b], loss_mask[b]).sum()
        rows.append((s, loss_mask[b].sum()))
        total = total + s / c
    if loss_agg_mode == "seq-mean-token-sum-norm":
        return total
    if loss_agg_mode == "token-mean":
        return sum(s for s, _ in rows) / sum(n for _, n in rows)
    if loss_agg_mode == "seq-mean-token-mean":
        return sum(s / n for s, n in rows) / B
    return sum(s for s, _ in rows) / B

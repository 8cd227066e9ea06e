# expect: right
# framework: torch
# style: masked_fill then a dispatch table
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and not (norm_const > 0):
        raise ValueError("norm_const must be positive")
    clean = loss_mat.masked_fill(~loss_mask, 0.0)
    n_tok = loss_mask.sum(-1)
    T = loss_mat.size(-1)
    table = {
        "token-mean": lambda: clean.sum() / n_tok.sum(),
        "seq-mean-token-mean": lambda: (clean.sum(-1) / n_tok).mean(),
        "seq-mean-token-sum": lambda: clean.sum(-1).mean(),
        "seq-mean-token-sum-norm": lambda: (clean.sum(-1) / (T if norm_const is None else norm_const)).mean(),
    }
    if loss_agg_mode not in table:
        raise ValueError(f"unknown mode {loss_agg_mode}")
    return table[loss_agg_mode]()

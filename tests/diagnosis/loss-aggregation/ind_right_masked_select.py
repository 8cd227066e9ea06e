# expect: right
# framework: torch
# style: masked_select for token-mean, rows sliced by length for the sequence modes
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    modes = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")
    if loss_agg_mode not in modes:
        raise ValueError(f"loss_agg_mode must be one of {modes}")
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    if loss_agg_mode == "token-mean":
        return torch.masked_select(loss_mat, loss_mask).mean()
    rows = []
    for b in range(loss_mat.shape[0]):
        tok = torch.masked_select(loss_mat[b], loss_mask[b])
        if loss_agg_mode == "seq-mean-token-mean":
            rows.append(tok.mean())
        elif loss_agg_mode == "seq-mean-token-sum":
            rows.append(tok.sum())
        else:
            rows.append(tok.sum() / (loss_mat.shape[-1] if norm_const is None else norm_const))
    return torch.stack(rows).mean()

# expect: right
# framework: torch
# style: accumulate in float64, return in the input dtype; einsum for the row sums
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    x = torch.where(loss_mask, loss_mat, torch.zeros((), dtype=loss_mat.dtype)).double()
    S = torch.einsum("bt->b", x)
    n = loss_mask.sum(-1).double()
    match loss_agg_mode:
        case "token-mean":
            out = S.sum() / n.sum()
        case "seq-mean-token-mean":
            out = (S / n).mean()
        case "seq-mean-token-sum":
            out = S.mean()
        case "seq-mean-token-sum-norm":
            out = (S / float(loss_mat.shape[-1] if norm_const is None else norm_const)).mean()
        case _:
            raise ValueError(loss_agg_mode)
    return out.to(loss_mat.dtype)

# expect: agg-seq-sum-as-seq-mean agg-padding-in-count
# framework: torch
# style: loop over rows; token-mean over all slots, the token sum normalised by length
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None):
    if norm_const is not None and norm_const <= 0:
        raise ValueError("norm_const must be positive")
    B, T = loss_mat.shape
    clean = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat))
    if loss_agg_mode == "token-mean":
        return clean.mean()
    per_row = []
    for b in range(B):
        s = clean[b].sum()
        n = loss_mask[b].sum()
        if loss_agg_mode in ("seq-mean-token-mean", "seq-mean-token-sum"):
            per_row.append(s / n)
        elif loss_agg_mode == "seq-mean-token-sum-norm":
            per_row.append(s / (T if norm_const is None else norm_const))
        else:
            raise ValueError(loss_agg_mode)
    return torch.stack(per_row).mean()

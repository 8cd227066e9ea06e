# expect: whiten-per-row whiten-unbiased-variance
# known-unnamed: per-row Bessel variance guarded to 0 on single-token rows; the derived pair gives NaN there
# framework: torch
# style: per row, torch.var default (unbiased) guarded for single tokens
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    rows = []
    for b in range(advantages.shape[0]):
        n = int(response_mask[b].sum())
        seg = advantages[b, :n]
        mu = seg.mean()
        var = seg.var() if n > 1 else torch.zeros((), dtype=seg.dtype)
        w = (seg - mu) / torch.sqrt(var + eps)
        if not shift_mean:
            w = w + mu
        rows.append(torch.cat([w, torch.zeros(advantages.shape[1] - n, dtype=w.dtype)]))
    return torch.stack(rows)

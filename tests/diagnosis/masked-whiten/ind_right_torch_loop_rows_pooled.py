# expect: right
# framework: torch
# style: collect every row's valid prefix in a list, pool with torch.cat
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    lengths = response_mask.sum(1).tolist()
    pieces = [advantages[b, :n] for b, n in enumerate(lengths)]
    pooled = torch.cat(pieces)
    mean = pooled.mean()
    var = ((pooled - mean) ** 2).mean()
    out = torch.zeros_like(advantages)
    for b, n in enumerate(lengths):
        w = (advantages[b, :n] - mean) / torch.sqrt(var + eps)
        out[b, :n] = w if shift_mean else w + mean
    return out

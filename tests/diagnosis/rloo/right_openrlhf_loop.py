# expect: right
# framework: torch
# style: OpenRLHF-style rloo: explicit loop over the other samples
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    P, K = r.shape
    out = torch.empty_like(r)
    for p in range(P):
        for i in range(K):
            others = torch.cat([r[p, :i], r[p, i + 1:]])
            out[p, i] = r[p, i] - others.mean()
    return out

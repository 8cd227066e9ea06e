# expect: ev-r2-not-ev
# framework: torch
# style: r2_score: 1 - SS_res / SS_tot
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    y, p = returns[mask], values[mask]
    ss_tot = ((y - y.mean()) ** 2).sum()
    if ss_tot == 0:
        return float("nan")
    ss_res = ((y - p) ** 2).sum()
    return (1 - ss_res / ss_tot).item()

# expect: right
# framework: torch
# style: verl-like masked moments with torch.where
import torch


def _masked_var(x, m):
    n = m.sum()
    mean = torch.where(m, x, torch.zeros_like(x)).sum() / n
    return torch.where(m, (x - mean) ** 2, torch.zeros_like(x)).sum() / n


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shapes")
    m = torch.ones(returns.shape, dtype=torch.bool) if mask is None else mask
    r = torch.where(m, returns.double(), torch.zeros((), dtype=torch.float64))
    v = torch.where(m, values.double(), torch.zeros((), dtype=torch.float64))
    var_r = _masked_var(r, m)
    if var_r == 0:
        return float("nan")
    return float(1.0 - _masked_var(r - v, m) / var_r)

# expect: right
# framework: torch
# style: masked_mean / masked_var helpers with torch.where, mask=None as all-True
import torch


def _masked_mean(x, m):
    return torch.where(m, x, torch.zeros_like(x)).sum() / m.sum()


def _masked_var(x, m):
    mu = _masked_mean(x, m)
    return _masked_mean((torch.where(m, x, mu) - mu) ** 2, m)


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError(f"{values.shape} != {returns.shape}")
    m = torch.ones_like(returns, dtype=torch.bool) if mask is None else mask
    var_r = _masked_var(returns, m)
    if var_r.item() == 0.0:
        return float("nan")
    resid = torch.where(m, returns - values, torch.zeros_like(returns))
    return (1.0 - _masked_var(resid, m) / var_r).item()

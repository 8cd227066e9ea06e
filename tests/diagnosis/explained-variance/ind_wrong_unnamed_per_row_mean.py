# expect:
# expect-unnamed: explained variance computed per row and averaged over rows, not over all valid tokens
# framework: numpy
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, bool) if mask is None else mask
    evs = []
    for b in range(values.shape[0]):
        r, v = returns[b][m[b]], values[b][m[b]]
        if r.size and np.var(r) > 0:
            evs.append(1 - np.var(r - v) / np.var(r))
    return float(np.mean(evs)) if evs else float("nan")

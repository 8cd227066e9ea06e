# expect: right
# framework: numpy
# style: hand-written stable log-sigmoid, np.where piecewise
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    a = np.asarray(r_chosen, dtype=float)
    b = np.asarray(r_rejected, dtype=float)
    if a.ndim != 1 or a.shape != b.shape or a.size == 0:
        raise ValueError("need two non-empty 1-D arrays of equal length")
    x = a - b - margin
    log_sig = np.minimum(x, 0.0) - np.log1p(np.exp(-np.abs(x)))
    return float(-log_sig.mean())

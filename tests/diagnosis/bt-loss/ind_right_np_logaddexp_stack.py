# expect: right
# framework: numpy
# style: NumPy, -log sigmoid(x) = log(exp(0) + exp(-x)) via logaddexp on a stacked pair
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    rc, rr = np.asarray(r_chosen), np.asarray(r_rejected)
    if rc.shape != rr.shape:
        raise ValueError("r_chosen and r_rejected differ in shape")
    if rc.ndim != 1 or rc.shape[0] == 0:
        raise ValueError("expected non-empty 1-D arrays")
    gap = rc - rr - margin
    per_pair = np.logaddexp(np.zeros_like(gap), -gap)
    return float(per_pair.sum() / per_pair.shape[0])

# expect: bt-log-of-sigmoid
# framework: numpy
# style: Bradley-Terry probability written as exp / (exp + exp), then log
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    rc = np.asarray(r_chosen, dtype=np.float64)
    rr = np.asarray(r_rejected, dtype=np.float64)
    if rc.ndim != 1 or rc.shape != rr.shape or rc.size == 0:
        raise ValueError("need matching 1-D arrays")
    p = 1.0 / (1.0 + np.exp(-(rc - rr - margin)))
    return float(np.mean(-np.log(p)))

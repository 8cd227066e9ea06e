# expect: right
# framework: numpy
# style: NumPy np.logaddexp.reduce
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    d = np.where(mask, logp, 0.0) - np.where(mask, old_logp, 0.0)
    log_w = d.sum(-1)
    lse = np.logaddexp.reduce(log_w)
    ess = np.exp(2.0 * lse - np.logaddexp.reduce(2.0 * log_w))
    snis = np.sum(np.exp(log_w - lse) * returns)
    return log_w, ess, np.mean(np.exp(log_w) * returns), snis

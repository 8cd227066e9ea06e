# expect: is-snis-no-denominator
# framework: numpy
# style: NumPy, snis = sum(w * G)
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    def lse(x):
        m = x.max()
        return m + np.log(np.exp(x - m).sum())
    log_w = np.where(mask, logp - old_logp, 0.0).sum(1)
    w = np.exp(log_w)
    ess = np.exp(2 * lse(log_w) - lse(2 * log_w))
    return log_w, ess, np.mean(w * returns), np.sum(w * returns)

# expect: is-padding-included
# framework: numpy
# style: NumPy, log-ratios summed over every position
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    def lse(x):
        m = x.max()
        return m + np.log(np.exp(x - m).sum())
    with np.errstate(all="ignore"):
        log_w = (logp - old_logp).sum(axis=1)
        ess = np.exp(2 * lse(log_w) - lse(2 * log_w))
        return log_w, ess, np.mean(np.exp(log_w) * returns), np.exp(log_w - lse(log_w)) @ returns

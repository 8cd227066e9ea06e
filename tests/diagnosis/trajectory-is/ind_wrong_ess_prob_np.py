# expect: is-ess-probability-space
# framework: numpy
# style: NumPy, w = exp(log_w) then (sum w)^2 / sum w^2
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
    with np.errstate(all="ignore"):
        ess = w.sum() ** 2 / (w ** 2).sum()
    return log_w, ess, np.mean(w * returns), np.exp(log_w - lse(log_w)) @ returns

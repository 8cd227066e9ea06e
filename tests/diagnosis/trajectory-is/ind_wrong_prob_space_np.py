# expect: is-probability-space
# framework: numpy
# style: NumPy, products of token probabilities
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    def lse(x):
        m = x.max()
        return m + np.log(np.exp(x - m).sum())
    p = np.where(mask, np.exp(np.where(mask, logp, 0.0)), 1.0)
    q = np.where(mask, np.exp(np.where(mask, old_logp, 0.0)), 1.0)
    with np.errstate(all="ignore"):
        w = p.prod(axis=1) / q.prod(axis=1)
        log_w = np.log(w)
        ess = np.exp(2 * lse(log_w) - lse(2 * log_w))
        return log_w, ess, np.mean(w * returns), np.exp(log_w - lse(log_w)) @ returns

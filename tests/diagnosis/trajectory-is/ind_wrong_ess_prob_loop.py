# expect: is-ess-probability-space
# framework: numpy
# style: NumPy, running sums of w and w^2
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    log_w = np.where(mask, logp - old_logp, 0.0).sum(1)
    s1 = s2 = 0.0
    with np.errstate(all="ignore"):
        for lw in log_w:
            w = np.exp(lw)
            s1 += w
            s2 += w * w
        ess = s1 * s1 / s2
    m = log_w.max()
    p = np.exp(log_w - m) / np.exp(log_w - m).sum()
    return log_w, ess, np.mean(np.exp(log_w) * returns), float(p @ returns)

# expect: ratio-inverted
# framework: numpy
# style: mask multiplied, weights of pi_old / pi_theta
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    logp, old_logp, returns = (np.asarray(x, dtype=np.float64) for x in (logp, old_logp, returns))
    mask = np.asarray(mask, dtype=bool)
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape or logp.shape[0] == 0:
        raise ValueError("shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    log_w = ((old_logp - logp) * mask).sum(1)
    m = log_w.max()
    lse = m + np.log(np.exp(log_w - m).sum())
    m2 = (2 * log_w).max()
    lse2 = m2 + np.log(np.exp(2 * log_w - m2).sum())
    w = np.exp(log_w - lse)
    return log_w, float(np.exp(2 * lse - lse2)), float(np.mean(np.exp(log_w) * returns)), float(w @ returns)

# expect: is-probability-space
# framework: numpy
# style: loop multiplying token probabilities
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    logp, old_logp, mask, returns = (np.asarray(logp, float), np.asarray(old_logp, float),
                                     np.asarray(mask, bool), np.asarray(returns, float))
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    n, t = logp.shape
    log_w = np.zeros(n)
    for i in range(n):
        p_new, p_old = 1.0, 1.0
        for j in range(t):
            if mask[i, j]:
                p_new *= np.exp(logp[i, j])
                p_old *= np.exp(old_logp[i, j])
        log_w[i] = np.log(p_new / p_old)
    lse = lambda x: x.max() + np.log(np.exp(x - x.max()).sum())
    ess = np.exp(2 * lse(log_w) - lse(2 * log_w))
    return log_w, float(ess), float(np.mean(np.exp(log_w) * returns)), float(np.sum(np.exp(log_w - lse(log_w)) * returns))

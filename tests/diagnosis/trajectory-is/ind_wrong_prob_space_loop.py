# expect: is-probability-space
# framework: numpy
# style: NumPy loop multiplying per-token probabilities
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    def lse(x):
        m = x.max()
        return m + np.log(np.exp(x - m).sum())
    N, T = logp.shape
    w = np.ones(N)
    with np.errstate(all="ignore"):
        for n in range(N):
            num, den = 1.0, 1.0
            for t in range(T):
                if mask[n, t]:
                    num *= np.exp(logp[n, t])
                    den *= np.exp(old_logp[n, t])
            w[n] = num / den
        log_w = np.log(w).astype(logp.dtype)
        ess = np.exp(2 * lse(log_w) - lse(2 * log_w))
        return log_w, ess, np.mean(w * returns), np.exp(log_w - lse(log_w)) @ returns

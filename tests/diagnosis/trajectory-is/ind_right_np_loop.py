# expect: right
# framework: numpy
# style: NumPy loops with math, logaddexp accumulation
import math
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    if np.ndim(logp) != 2 or np.shape(logp) != np.shape(old_logp) or np.shape(mask) != np.shape(logp):
        raise ValueError("shapes")
    N, T = np.shape(logp)
    if N == 0 or np.shape(returns) != (N,):
        raise ValueError("N or returns")
    log_w = np.zeros(N, dtype=logp.dtype)
    for n in range(N):
        s = 0.0
        for t in range(T):
            if mask[n, t]:
                s += float(logp[n, t]) - float(old_logp[n, t])
        log_w[n] = s
    lse1 = -math.inf
    lse2 = -math.inf
    for x in log_w.tolist():
        lse1 = np.logaddexp(lse1, x)
        lse2 = np.logaddexp(lse2, 2 * x)
    ess = math.exp(2 * lse1 - lse2)
    is_est = sum(math.exp(x) * float(g) for x, g in zip(log_w.tolist(), returns.tolist())) / N
    snis = sum(math.exp(x - lse1) * float(g) for x, g in zip(log_w.tolist(), returns.tolist()))
    return log_w, ess, is_est, snis

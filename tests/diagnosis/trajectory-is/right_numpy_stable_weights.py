# expect: right
# framework: numpy
# style: weights rescaled by the max log-weight before any exp
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    logp, old_logp, mask, returns = (np.asarray(logp, float), np.asarray(old_logp, float),
                                     np.asarray(mask, bool), np.asarray(returns, float))
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = (np.where(mask, logp - old_logp, 0.0)).sum(-1)
    m = log_w.max()
    scaled = np.exp(log_w - m)               # the largest is 1
    ess = scaled.sum() ** 2 / (scaled ** 2).sum()
    is_est = np.mean(np.exp(log_w) * returns)
    snis = (scaled * returns).sum() / scaled.sum()
    return log_w, ess, is_est, snis

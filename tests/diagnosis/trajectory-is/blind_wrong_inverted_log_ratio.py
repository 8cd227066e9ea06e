# expect: ratio-inverted
# framework: numpy
# style: log-weights old - new
import numpy as np


def _lse(x):
    m = x.max()
    return m + np.log(np.exp(x - m).sum())


def trajectory_is(logp, old_logp, mask, returns):
    logp = np.asarray(logp, dtype=np.float64)
    old_logp = np.asarray(old_logp, dtype=np.float64)
    mask = np.asarray(mask, dtype=bool)
    returns = np.asarray(returns, dtype=np.float64)
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape or logp.shape[0] == 0:
        raise ValueError("logp, old_logp and mask must be [N, T], N >= 1")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = np.where(mask, old_logp - logp, 0.0).sum(axis=1)
    ess = np.exp(2 * _lse(log_w) - _lse(2 * log_w))
    is_est = np.mean(np.exp(log_w) * returns)
    snis = float(np.exp(log_w - _lse(log_w)) @ returns)
    return log_w, float(ess), float(is_est), snis

# expect: is-ess-probability-space
# framework: numpy
# style: ESS from exp(log_w) directly
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
    log_w = np.where(mask, logp - old_logp, 0.0).sum(axis=1)
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.exp(log_w)
        ess = w.sum() ** 2 / (w ** 2).sum()
    is_est = np.mean(np.exp(log_w) * returns)
    snis = float(np.exp(log_w - _lse(log_w)) @ returns)
    return log_w, float(ess), float(is_est), snis

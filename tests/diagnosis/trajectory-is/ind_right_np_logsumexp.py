# expect: right
# framework: numpy
# style: NumPy, logsumexp by hand (max shift), softmax weights for SNIS
import numpy as np


def _logsumexp(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("logp, old_logp and mask must be [N, T] of one shape")
    N = logp.shape[0]
    if N == 0:
        raise ValueError("no trajectories")
    if returns.shape != (N,):
        raise ValueError("returns must be [N]")
    with np.errstate(invalid="ignore"):
        log_w = np.where(mask, logp - old_logp, 0.0).sum(axis=1)
    ess = np.exp(2 * _logsumexp(log_w) - _logsumexp(2 * log_w))
    is_est = np.mean(np.exp(log_w) * returns)
    p = np.exp(log_w - _logsumexp(log_w))
    snis = float(p @ returns)
    return log_w, float(ess), float(is_est), snis

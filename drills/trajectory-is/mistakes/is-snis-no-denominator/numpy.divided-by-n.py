"""Trajectory importance weights, ESS and IS estimates in NumPy."""
import numpy as np


def _logsumexp(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


def trajectory_is(logp, old_logp, mask, returns):
    """Per-trajectory log importance weights, their effective sample size and the plain and
    self-normalised importance-sampling estimates of the return.

    logp, old_logp: float arrays [N, T]; mask: bool array [N, T]; returns: float array [N].
    Returns (log_w [N], ess, is_estimate, snis_estimate).
    """
    logp = np.asarray(logp, dtype=np.float64)
    old_logp = np.asarray(old_logp, dtype=np.float64)
    mask = np.asarray(mask, dtype=bool)
    returns = np.asarray(returns, dtype=np.float64)
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape or logp.shape[0] == 0:
        raise ValueError("logp, old_logp and mask must be [N, T] of one shape with N >= 1")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must have one entry per trajectory")

    # Sum log-ratios over the policy's tokens only; a product of probabilities underflows.
    log_ratio = np.where(mask, logp - old_logp, 0.0)
    log_w = log_ratio.sum(axis=1)
    # ESS = (sum w)^2 / sum w^2, in log space so that log w = +-700 neither overflows nor underflows.
    ess = np.exp(2.0 * _logsumexp(log_w) - _logsumexp(2.0 * log_w))
    is_estimate = np.mean(np.exp(log_w) * returns)
    normalised = np.exp(log_w) / log_w.shape[0]
    snis_estimate = np.sum(normalised * returns)
    return log_w, float(ess), float(is_estimate), float(snis_estimate)

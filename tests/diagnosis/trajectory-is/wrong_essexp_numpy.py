# expect: is-ess-probability-space
# framework: numpy
# style: ESS from np.exp weights, squared norm
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    logp, old_logp, mask, returns = (np.asarray(logp, float), np.asarray(old_logp, float),
                                     np.asarray(mask, bool), np.asarray(returns, float))
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    lse = lambda x: x.max() + np.log(np.exp(x - x.max()).sum())
    log_w = np.where(mask, logp - old_logp, 0.0).sum(axis=1)
    ess = np.sum(np.exp(log_w)) ** 2 / np.dot(np.exp(log_w), np.exp(log_w))
    is_est = np.mean(np.exp(log_w) * returns)
    snis = np.sum(np.exp(log_w - lse(log_w)) * returns)
    return log_w, float(ess), float(is_est), float(snis)

# expect: is-probability-space is-ess-probability-space
# framework: numpy
# style: weights as products of per-token probability ratios
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    logp = np.asarray(logp, dtype=np.float64)
    old_logp = np.asarray(old_logp, dtype=np.float64)
    mask = np.asarray(mask, dtype=bool)
    returns = np.asarray(returns, dtype=np.float64)
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape or logp.shape[0] == 0:
        raise ValueError("logp, old_logp and mask must be [N, T], N >= 1")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.where(mask, np.exp(logp), 1.0).prod(axis=1)
        q = np.where(mask, np.exp(old_logp), 1.0).prod(axis=1)
        w = p / q
        log_w = np.log(w)
        ess = w.sum() ** 2 / (w ** 2).sum()
        is_est = np.mean(w * returns)
        snis = (w * returns).sum() / w.sum()
    return log_w, float(ess), float(is_est), float(snis)

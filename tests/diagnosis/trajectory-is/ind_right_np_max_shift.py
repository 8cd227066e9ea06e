# expect: right
# framework: numpy
# style: NumPy, weights rescaled by exp(-max log w) before the ESS (scale-free)
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    logp, old_logp, mask, returns = map(np.asarray, (logp, old_logp, mask, returns))
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("bad shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("bad N / returns")
    lr = np.zeros(logp.shape, dtype=np.result_type(logp, old_logp))
    lr[mask] = logp[mask] - old_logp[mask]
    log_w = lr.sum(axis=1)
    shifted = np.exp(log_w - log_w.max())
    ess = shifted.sum() ** 2 / (shifted ** 2).sum()
    snis = (shifted * returns).sum() / shifted.sum()
    is_est = (np.exp(log_w) * returns).mean()
    return log_w, ess, is_est, snis

# expect: is-ess-probability-space
# framework: numpy
# style: weights as probabilities, squared with np.square
import numpy as np


def trajectory_is(logp, old_logp, mask, returns):
    logp, old_logp = np.asarray(logp, float), np.asarray(old_logp, float)
    mask, returns = np.asarray(mask, bool), np.asarray(returns, float)
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = np.sum(np.where(mask, logp - old_logp, 0.0), axis=1)
    w = np.exp(log_w)
    ess = np.square(w.sum()) / np.square(w).sum()
    shifted = np.exp(log_w - log_w.max())
    return log_w, float(ess), float(np.mean(w * returns)), float((shifted * returns).sum() / shifted.sum())

# expect: right
# framework: torch
# style: normalised weights w~ = softmax(log w); ESS = 1 / sum(w~^2)
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or old_logp.shape != logp.shape or mask.shape != logp.shape:
        raise ValueError("logp, old_logp, mask must share one [N, T] shape")
    if logp.shape[0] == 0:
        raise ValueError("N = 0")
    if tuple(returns.shape) != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = (logp - old_logp).masked_fill(~mask, 0.0).sum(1)
    w_norm = torch.softmax(log_w, 0)
    ess = 1.0 / (w_norm ** 2).sum()
    return log_w, ess, torch.mean(log_w.exp() * returns), (w_norm * returns).sum()

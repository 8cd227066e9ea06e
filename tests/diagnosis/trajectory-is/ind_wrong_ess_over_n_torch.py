# expect: is-ess-over-n
# framework: torch
# style: normalised weights, ESS as 1 / (N sum w~^2)
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    N = logp.shape[0]
    log_w = (logp - old_logp).masked_fill(~mask, 0.0).sum(-1)
    w = torch.softmax(log_w, 0)
    ess = 1.0 / (N * (w * w).sum())
    return log_w, ess, (log_w.exp() * returns).mean(), (w * returns).sum()

# expect: is-ess-probability-space
# framework: torch
# style: weights exponentiated first
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = torch.where(mask, logp - old_logp, torch.zeros_like(logp)).sum(-1)
    w = log_w.exp()
    ess = w.sum() ** 2 / (w * w).sum()
    return log_w, ess, (w * returns).mean(), (torch.softmax(log_w, 0) * returns).sum()

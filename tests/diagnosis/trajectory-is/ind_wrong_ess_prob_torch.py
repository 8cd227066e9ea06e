# expect: is-ess-probability-space
# framework: torch
# style: torch weights exponentiated for the ESS
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    log_w = (logp - old_logp).masked_fill(~mask, 0).sum(1)
    w = log_w.exp()
    ess = w.sum().pow(2) / w.pow(2).sum()
    return log_w, ess, (w * returns).mean(), torch.softmax(log_w, 0) @ returns

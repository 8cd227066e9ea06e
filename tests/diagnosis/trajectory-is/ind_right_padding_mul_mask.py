# expect: right
# framework: torch
# style: mask multiplied into the log-ratios (the padding is finite, so x * 0 is 0)
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    log_w = ((logp - old_logp) * mask).sum(-1)
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    return log_w, ess, (log_w.exp() * returns).mean(), torch.softmax(log_w, 0) @ returns

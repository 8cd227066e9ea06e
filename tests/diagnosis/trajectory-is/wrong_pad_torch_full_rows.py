# expect: is-padding-included
# framework: torch
# style: per-row loop over every position
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = torch.stack([(logp[i] - old_logp[i]).sum() for i in range(logp.shape[0])])
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    return log_w, ess, (log_w.exp() * returns).mean(), (torch.softmax(log_w, 0) * returns).sum()

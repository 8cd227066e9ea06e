# expect: right
# framework: torch
# style: python floats for the scalar statistics, log-space throughout
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = (torch.where(mask, logp, old_logp) - old_logp).sum(1)
    log_ess = 2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0)
    weights = torch.softmax(log_w, 0)
    return log_w, float(log_ess.exp()), float((log_w.exp() * returns).mean()), float((weights * returns).sum())

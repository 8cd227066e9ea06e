# expect: is-snis-no-denominator
# framework: torch
# style: torch weighted sum of the returns
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    log_w = torch.where(mask, logp - old_logp, torch.zeros_like(logp)).sum(1)
    w = log_w.exp()
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    return log_w, ess, (w * returns).mean(), w @ returns

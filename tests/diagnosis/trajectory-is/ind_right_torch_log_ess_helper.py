# expect: right
# framework: torch
# style: helpers for the log-ESS and the self-normalised estimate, lists of per-row sums stacked
import torch


def log_ess(log_w):
    return 2 * torch.logsumexp(log_w, dim=0) - torch.logsumexp(2 * log_w, dim=0)


def snis(log_w, g):
    return (torch.softmax(log_w, dim=0) * g).sum()


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    N = logp.shape[0]
    if N == 0 or returns.shape != (N,):
        raise ValueError("returns")
    rows = [torch.masked_select(logp[n] - old_logp[n], mask[n]).sum() for n in range(N)]
    log_w = torch.stack(rows).to(logp.dtype)
    return log_w, log_ess(log_w).exp(), (log_w.exp() * returns).sum() / N, snis(log_w, returns)

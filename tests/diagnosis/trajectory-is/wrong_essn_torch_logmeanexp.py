# expect: is-ess-over-n
# framework: torch
# style: log-mean-exp in place of logsumexp
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = torch.where(mask, logp - old_logp, torch.zeros_like(logp)).sum(-1)
    n = torch.tensor(float(log_w.shape[0]), dtype=log_w.dtype)
    lme = lambda x: torch.logsumexp(x, 0) - torch.log(n)
    ess = torch.exp(2 * lme(log_w) - lme(2 * log_w))
    return log_w, ess, (log_w.exp() * returns).mean(), (torch.softmax(log_w, 0) * returns).sum()

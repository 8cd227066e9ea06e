# expect: is-ess-over-n
# framework: torch
# style: ESS from mean(w)^2 / mean(w^2) in log space
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    N = logp.shape[0]
    log_w = torch.where(mask, logp - old_logp, torch.zeros_like(logp)).sum(1)
    log_mean_w = torch.logsumexp(log_w, 0) - torch.log(torch.tensor(float(N), dtype=log_w.dtype))
    log_mean_w2 = torch.logsumexp(2 * log_w, 0) - torch.log(torch.tensor(float(N), dtype=log_w.dtype))
    ess = torch.exp(2 * log_mean_w - log_mean_w2)
    return log_w, ess, (log_w.exp() * returns).mean(), torch.softmax(log_w, 0) @ returns

# expect: is-snis-no-denominator
# framework: torch
# style: accumulates w_n G_n and forgets the normaliser
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    log_w = (logp - old_logp).masked_fill(~mask, 0.0).sum(-1)
    ess = (2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0)).exp()
    total = torch.zeros((), dtype=log_w.dtype)
    for n in range(log_w.shape[0]):
        total = total + log_w[n].exp() * returns[n]
    return log_w, ess, total / log_w.shape[0], total

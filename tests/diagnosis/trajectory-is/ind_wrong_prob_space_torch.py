# expect: is-probability-space
# framework: torch
# style: torch.prod of exp(logp) over the policy tokens
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    one = torch.ones_like(logp)
    p_theta = torch.where(mask, logp.exp(), one).prod(dim=1)
    p_old = torch.where(mask, old_logp.exp(), one).prod(dim=1)
    w = p_theta / p_old
    log_w = torch.log(w)
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    return log_w, ess, (w * returns).mean(), torch.softmax(log_w, 0) @ returns

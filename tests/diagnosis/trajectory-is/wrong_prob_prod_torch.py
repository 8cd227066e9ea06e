# expect: is-probability-space
# framework: torch
# style: trajectory probabilities as products
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = torch.log(torch.where(mask, logp.exp(), torch.ones_like(logp)).prod(-1)) - torch.log(torch.where(mask, old_logp.exp(), torch.ones_like(logp)).prod(-1))
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    is_est = (log_w.exp() * returns).mean()
    snis = (torch.softmax(log_w, 0) * returns).sum()
    return log_w, ess, is_est, snis

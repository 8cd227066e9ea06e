# expect: is-ess-over-n
# framework: torch
# style: ESS reported as a fraction of the batch
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = torch.where(mask, logp - old_logp, torch.zeros_like(logp)).sum(-1)
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0)) / log_w.numel()
    is_est = (log_w.exp() * returns).mean()
    snis = (torch.softmax(log_w, 0) * returns).sum()
    return log_w, ess, is_est, snis

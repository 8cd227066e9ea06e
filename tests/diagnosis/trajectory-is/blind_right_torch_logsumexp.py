# expect: right
# framework: torch
# style: torch.logsumexp and softmax
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape or logp.shape[0] == 0:
        raise ValueError("logp, old_logp and mask must be [N, T], N >= 1")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = torch.where(mask, logp - old_logp, torch.zeros((), dtype=logp.dtype)).sum(-1)
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    is_est = (torch.exp(log_w) * returns).mean()
    snis = (torch.softmax(log_w, 0) * returns).sum()
    return log_w, ess, is_est, snis

# expect: right
# framework: torch
# style: torch.logsumexp and torch.softmax
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape:
        raise ValueError("shape mismatch")
    N = logp.shape[0]
    if N == 0 or returns.shape != (N,):
        raise ValueError("bad N or returns")
    log_ratio = torch.where(mask, logp - old_logp, torch.zeros_like(logp))
    log_w = log_ratio.sum(dim=-1)
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    is_estimate = (torch.exp(log_w) * returns).mean()
    snis_estimate = torch.softmax(log_w, dim=0) @ returns
    return log_w, ess, is_estimate, snis_estimate

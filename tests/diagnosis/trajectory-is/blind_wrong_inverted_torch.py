# expect: ratio-inverted
# framework: torch
# style: behaviour over target
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape or logp.shape[0] == 0:
        raise ValueError("logp, old_logp and mask must be [N, T], N >= 1")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_w = torch.where(mask, old_logp - logp, torch.zeros_like(logp)).sum(1)
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    return log_w, ess, torch.mean(torch.exp(log_w) * returns), torch.softmax(log_w, 0) @ returns

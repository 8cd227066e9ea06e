# expect: right
# framework: torch
# style: masked_fill, torch.logsumexp, softmax
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.ndim != 2 or logp.shape != old_logp.shape or mask.shape != logp.shape or logp.shape[0] == 0:
        raise ValueError("bad shapes")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must be [N]")
    log_ratio = (logp - old_logp).masked_fill(~mask, 0.0)
    log_w = log_ratio.sum(dim=-1)
    lse = torch.logsumexp(log_w, dim=0)
    ess = torch.exp(2 * lse - torch.logsumexp(2 * log_w, dim=0))
    is_est = torch.exp(log_w).mul(returns).mean()
    snis = torch.exp(log_w - lse) @ returns
    return log_w, ess, is_est, snis

# expect: right
# framework: torch
# style: float64 statistics, log_w in the input dtype
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("logp / old_logp / mask shapes")
    if logp.size(0) == 0 or returns.dim() != 1 or returns.size(0) != logp.size(0):
        raise ValueError("returns must be [N], N > 0")
    log_w = torch.where(mask, logp, torch.zeros_like(logp)).sum(1) - torch.where(mask, old_logp, torch.zeros_like(old_logp)).sum(1)
    lw = log_w.double()
    G = returns.double()
    lse = torch.logsumexp(lw, 0)
    ess = (2 * lse - torch.logsumexp(2 * lw, 0)).exp()
    snis = (torch.exp(lw - lse) * G).sum()
    is_est = (lw.exp() * G).mean()
    return log_w, ess.item(), is_est.item(), snis.item()

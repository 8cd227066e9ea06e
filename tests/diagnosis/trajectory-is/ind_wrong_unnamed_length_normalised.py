# expect:
# expect-unnamed: log weight length-normalised (mean per-token log-ratio, as GSPO does) instead of summed
# framework: torch
import torch


def trajectory_is(logp, old_logp, mask, returns):
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError("shapes")
    if logp.shape[0] == 0 or returns.shape != (logp.shape[0],):
        raise ValueError("returns")
    n_tok = mask.sum(-1).clamp(min=1)
    log_w = torch.where(mask, logp - old_logp, torch.zeros_like(logp)).sum(-1) / n_tok
    ess = torch.exp(2 * torch.logsumexp(log_w, 0) - torch.logsumexp(2 * log_w, 0))
    return log_w, ess, (log_w.exp() * returns).mean(), torch.softmax(log_w, 0) @ returns

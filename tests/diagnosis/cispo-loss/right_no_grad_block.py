# expect: right
# framework: torch
# style: the weight computed under torch.no_grad(), explicit selection helpers
import torch


def _select(x, mask):
    return torch.where(mask, x, torch.zeros_like(x))


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0:
        raise ValueError("bad eps_high")
    if eps_low is not None and (eps_low <= 0 or eps_low > 1):
        raise ValueError("bad eps_low")
    logp = _select(log_prob, response_mask)
    with torch.no_grad():
        ratio = torch.exp(logp - _select(old_log_prob, response_mask))
        w = torch.minimum(ratio, torch.full_like(ratio, 1.0 + eps_high))
        if eps_low is not None:
            w = torch.maximum(w, torch.full_like(w, 1.0 - eps_low))
        w = _select(w, response_mask)
        a = _select(advantages, response_mask)
    n_tokens = response_mask.sum()
    return -(w * a * logp).sum() / n_tokens, w

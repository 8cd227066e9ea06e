# expect: right
# framework: torch
# style: boolean indexing to a flat vector of valid tokens, scatter the weights back
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("invalid clip range")
    lp = log_prob[response_mask]
    old = old_log_prob[response_mask].detach()
    adv = advantages[response_mask].detach()
    r = (lp.detach() - old).exp()
    hi = 1.0 + eps_high
    lo = 0.0 if eps_low is None else 1.0 - eps_low
    w = r.clamp(min=lo, max=hi) if eps_low is not None else r.clamp(max=hi)
    loss = -(w * adv * lp).mean()
    weights = torch.zeros(response_mask.shape, dtype=log_prob.dtype)
    weights[response_mask] = w
    return loss, weights

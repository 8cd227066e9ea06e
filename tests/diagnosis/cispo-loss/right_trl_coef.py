# expect: right
# framework: torch
# style: TRL's loss_type="cispo" shape: coef_1, a detached clamp, masked_fill, one token mean
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if not eps_high > 0:
        raise ValueError("eps_high must be positive")
    if eps_low is not None and not (0 < eps_low <= 1):
        raise ValueError("eps_low must lie in (0, 1]")
    pad = ~response_mask
    per_token_logps = log_prob.masked_fill(pad, 0.0)
    old = old_log_prob.detach().masked_fill(pad, 0.0)
    adv = advantages.detach().masked_fill(pad, 0.0)
    coef_1 = torch.exp(per_token_logps - old)
    lower = None if eps_low is None else 1 - eps_low
    clamped = torch.clamp(coef_1, min=lower, max=1 + eps_high).detach().masked_fill(pad, 0.0)
    per_token_loss = -clamped * adv * per_token_logps
    loss = per_token_loss.sum() / response_mask.sum()
    return loss, clamped

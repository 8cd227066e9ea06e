# expect: reward-kl-sign
# framework: torch
# style: the penalty added instead of subtracted
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    z = torch.zeros((), dtype=log_probs.dtype)
    r = torch.where(response_mask, kl_coef * (log_probs - ref_log_probs), z)
    last = response_mask.sum(1) - 1
    r[torch.arange(r.shape[0]), last] += scores.to(r.dtype)
    return r

# expect: reward-kl-sign
# style: beta * kl added
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = log_probs - ref_log_probs
    r = torch.where(response_mask, kl_coef * kl, torch.zeros_like(kl))
    idx = response_mask.sum(1) - 1
    r[torch.arange(r.shape[0]), idx] += scores
    return r

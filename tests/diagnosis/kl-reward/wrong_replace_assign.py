# expect: reward-score-replaces-kl
# style: assignment at the last index
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    r = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), torch.zeros_like(log_probs))
    last = response_mask.sum(-1) - 1
    r[torch.arange(len(last)), last] = scores.to(r.dtype)
    return r

# expect: reward-padding-kept
# style: scatter_add onto the raw penalty
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    pen = kl_coef * (ref_log_probs - log_probs)
    idx = (response_mask.sum(-1) - 1).unsqueeze(-1)
    return pen.scatter_add(-1, idx, scores.unsqueeze(-1).to(pen.dtype))

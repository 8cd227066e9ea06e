# expect: reward-score-replaces-kl
# style: torch.where picks the score at the end
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    T = log_probs.shape[-1]
    last = response_mask.sum(-1, keepdim=True) - 1
    is_last = torch.arange(T)[None, :] == last
    pen = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), torch.zeros_like(log_probs))
    return torch.where(is_last, scores[:, None].to(pen.dtype), pen)

# expect: reward-score-first-padding
# style: loop, index n when it fits
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    out = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), torch.zeros((), dtype=log_probs.dtype))
    for b in range(B):
        n = int(response_mask[b].sum().item())
        out[b, min(n, T - 1)] += scores[b]
    return out

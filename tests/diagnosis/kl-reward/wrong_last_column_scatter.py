# expect: reward-score-last-column
# style: scatter_add at T - 1
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    r = (-kl_coef * (log_probs - ref_log_probs)).masked_fill(~response_mask, 0.0)
    idx = torch.full((B, 1), T - 1, dtype=torch.long)
    return r.scatter_add(1, idx, scores.view(B, 1).to(r.dtype))

# expect: reward-score-last-column
# framework: torch
# style: loop, score on index T - 1 of every row
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    out = torch.zeros_like(log_probs)
    for b in range(B):
        for t in range(T):
            if response_mask[b, t]:
                out[b, t] = -kl_coef * (log_probs[b, t] - ref_log_probs[b, t])
        out[b, T - 1] += scores[b]
    return out

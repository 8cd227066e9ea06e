# expect: reward-kl-sign
# style: KL as a bonus, loop
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    out = torch.zeros(B, T, dtype=log_probs.dtype)
    for b in range(B):
        n = int(response_mask[b].sum())
        out[b, :n] = kl_coef * (log_probs[b, :n] - ref_log_probs[b, :n])
        out[b, n - 1] += scores[b]
    return out

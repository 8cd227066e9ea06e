# expect: reward-kl-not-k1
# framework: torch
# style: loop over rows, per-token k3 penalty with expm1
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    out = torch.zeros_like(log_probs)
    for b in range(log_probs.shape[0]):
        n = int(response_mask[b].sum())
        d = log_probs[b, :n] - ref_log_probs[b, :n]
        out[b, :n] = -kl_coef * (torch.expm1(-d) + d)
        out[b, n - 1] += scores[b]
    return out

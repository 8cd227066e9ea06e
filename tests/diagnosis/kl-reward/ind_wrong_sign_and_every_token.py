# expect: reward-kl-sign reward-score-every-token
# framework: torch
# style: score broadcast over the response and the KL added
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    r = scores.to(kl.dtype)[:, None] + kl_coef * kl
    return torch.where(response_mask, r, torch.zeros_like(r))

# expect: reward-score-every-token
# style: score broadcast over the row
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    per_tok = scores[:, None] - kl_coef * (log_probs - ref_log_probs)
    return torch.where(response_mask, per_tok, torch.zeros_like(per_tok))

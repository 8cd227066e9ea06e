# expect: reward-score-last-column
# style: score column concatenated at the end
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    zero = torch.zeros((), dtype=log_probs.dtype)
    pen = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), zero)
    last = pen[:, -1:] + scores.to(pen.dtype).unsqueeze(1)
    return torch.cat([pen[:, :-1], last], dim=1)

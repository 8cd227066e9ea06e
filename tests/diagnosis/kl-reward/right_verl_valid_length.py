# expect: right
# style: verl: scores placed at valid_length - 1, then KL penalty
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    token_level_scores = torch.zeros(log_probs.shape, dtype=log_probs.dtype)
    valid_len = response_mask.sum(-1)
    for i in range(log_probs.shape[0]):
        token_level_scores[i, valid_len[i] - 1] = scores[i]
    kld = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros((), dtype=log_probs.dtype))
    return token_level_scores - kl_coef * kld

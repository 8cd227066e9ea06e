# expect: right
# framework: torch
# style: F.one_hot of the last index times the score, float32/float64 kept
import torch
import torch.nn.functional as F


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    T = response_mask.shape[1]
    last = response_mask.long().sum(-1) - 1
    onehot = F.one_hot(last, num_classes=T).to(log_probs.dtype)
    lr = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    rewards = onehot * scores.to(log_probs.dtype).unsqueeze(-1) - kl_coef * lr
    return rewards.masked_fill(~response_mask, 0.0)

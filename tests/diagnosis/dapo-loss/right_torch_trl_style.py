# expect: right
# framework: torch
# style: TRL-like names: coef_1, coef_2, per_token_loss, completion_mask, loss_type="dapo"
import torch


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    if group_size < 2 or scores.shape[0] % group_size:
        raise ValueError("num_generations")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len")
    completion_lengths = response_mask.sum(1).to(scores.dtype)
    start = max_len - cache_len
    penalty = torch.where(completion_lengths <= start, torch.zeros_like(scores),
                          torch.where(completion_lengths <= max_len, (start - completion_lengths) / cache_len,
                                      -torch.ones_like(scores)))
    rewards = scores + penalty
    grouped = rewards.view(-1, group_size)
    std_scores = scores.view(-1, group_size)
    informative = (std_scores != std_scores[:, :1]).any(dim=1)
    advantages = (grouped - grouped.mean(dim=1, keepdim=True)) / (grouped.std(dim=1, keepdim=True) + eps)
    informative_rows = informative.repeat_interleave(group_size)
    advantages = advantages.view(-1) * informative_rows
    completion_mask = response_mask & informative_rows[:, None]
    if overlong_filter:
        completion_mask = completion_mask & ~truncated[:, None]
    zero = torch.zeros((), dtype=log_prob.dtype)
    log_ratio = torch.where(completion_mask, log_prob - old_log_prob.detach(), zero)
    coef_1 = torch.exp(log_ratio)
    coef_2 = torch.clamp(coef_1, 1 - clip_low, 1 + clip_high)
    adv = advantages.detach()[:, None]
    per_token_loss = -torch.min(coef_1 * adv, coef_2 * adv)
    per_token_loss = torch.where(completion_mask, per_token_loss, zero)
    return per_token_loss.sum() / completion_mask.sum().clamp(min=1.0), advantages, completion_mask

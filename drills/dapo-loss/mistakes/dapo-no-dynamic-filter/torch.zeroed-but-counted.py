"""DAPO's batch step: soft overlong penalty, dynamic-sampling and overlong filters, decoupled clip, token-level loss."""
import torch


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    """DAPO's policy loss, each response's advantage and the tokens that enter the loss (see prompt.md).

    log_prob, old_log_prob: float tensors [B, T]; scores: float [B], prompt-major groups of group_size;
    response_mask: bool [B, T], right-padded; truncated: bool [B].
    Returns (loss, advantages, loss_mask): a 0-d tensor, a [B] tensor and a bool [B, T] tensor.
    """
    if group_size < 2 or scores.shape[0] % group_size != 0:
        raise ValueError("the batch must hold whole groups of at least two samples")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len must lie strictly between 0 and max_len")
    zero = torch.zeros((), dtype=log_prob.dtype)
    old_log_prob, scores = old_log_prob.detach(), scores.detach()

    # Soft overlong punishment: 0 up to max_len - cache_len, then down linearly to -1 at max_len.
    lengths = response_mask.sum(dim=-1).to(scores.dtype)
    expected = max_len - cache_len
    penalty = ((expected - lengths) / cache_len).clamp(min=-1.0, max=0.0)
    rewards = (scores + penalty).reshape(-1, group_size)

    # Dynamic sampling: a group whose scores are all equal has nothing to compare; drop it.
    grouped_scores = scores.reshape(-1, group_size)
    keep_group = grouped_scores.max(dim=1).values > grouped_scores.min(dim=1).values

    # GRPO's group advantage of the shaped rewards, with the unbiased std.
    mean = rewards.mean(dim=1, keepdim=True)
    std = rewards.std(dim=1, keepdim=True)
    advantages = ((rewards - mean) / (std + eps)).reshape(-1)
    advantages = torch.where(keep_group.repeat_interleave(group_size), advantages, zero)

    # The tokens that enter the loss: kept groups, and no truncated response when filtering overlong.
    keep_row = keep_group.repeat_interleave(group_size)
    if overlong_filter:
        keep_row = keep_row & ~truncated
    loss_mask = response_mask & (keep_row | ~keep_group.repeat_interleave(group_size)).unsqueeze(-1)

    # Padding may hold NaN or inf: select, never multiply by the mask.
    log_prob = torch.where(loss_mask, log_prob, zero)
    old_log_prob = torch.where(loss_mask, old_log_prob, zero)
    ratio = torch.exp(log_prob - old_log_prob)

    # The decoupled band: clip_low below 1, clip_high above it.
    adv = advantages.unsqueeze(-1)
    per_token = torch.maximum(-adv * ratio, -adv * ratio.clamp(1.0 - clip_low, 1.0 + clip_high))

    # Token-level: one mean over every token of the batch that enters the loss.
    loss = torch.where(loss_mask, per_token, zero).sum() / loss_mask.sum().clamp(min=1)
    return loss, advantages, loss_mask

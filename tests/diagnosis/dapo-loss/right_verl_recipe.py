# expect: right
# framework: torch
# style: verl's DAPO pieces: the reward manager's overlong_reward, filter_groups on the score's std, GRPO advantage, token-mean
import torch


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    if group_size < 2 or scores.numel() % group_size:
        raise ValueError("group_size")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len")
    valid_response_length = response_mask.sum(-1).to(scores.dtype)
    expected_len = max_len - cache_len
    exceed_len = valid_response_length - expected_len
    overlong_reward = torch.clamp(-exceed_len / cache_len, max=0.0)
    reward = scores + overlong_reward
    uid_scores = scores.view(-1, group_size)
    kept_prompt = uid_scores.std(dim=1, unbiased=False) > 0
    r = reward.view(-1, group_size)
    adv = (r - r.mean(1, keepdim=True)) / (r.std(1, keepdim=True) + eps)
    kept_row = kept_prompt.repeat_interleave(group_size)
    adv = torch.where(kept_row, adv.reshape(-1), torch.zeros_like(scores))
    in_loss = kept_row & ~truncated if overlong_filter else kept_row
    loss_mask = response_mask & in_loss[:, None]
    z = torch.zeros_like(log_prob)
    neg_kl = torch.where(loss_mask, log_prob - old_log_prob.detach(), z)
    ratio = neg_kl.exp()
    a = adv[:, None]
    pg_losses1 = -a * ratio
    pg_losses2 = -a * torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    pg_losses = torch.where(loss_mask, torch.maximum(pg_losses1, pg_losses2), z)
    return pg_losses.sum() / loss_mask.sum().clamp(min=1), adv, loss_mask

# expect: right
# framework: torch
# style: verl's estimators: apply_kl_penalty, a running return reset after EOS, masked_whiten
import torch


def masked_whiten(values, mask, eps=1e-8):
    n = mask.sum()
    mean = (values * mask).sum() / n
    var = (((values - mean) ** 2) * mask).sum() / (n - 1)
    return (values - mean) * torch.rsqrt(var + eps)


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    if estimator not in ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo"):
        raise ValueError(estimator)
    B, T = response_mask.shape
    if group_size < 1 or B % group_size:
        raise ValueError("group_size")
    mask = response_mask.to(scores.dtype)
    if estimator != "dr_grpo" and mask.sum() < 2:
        raise ValueError("too few tokens")
    if estimator == "reinforce_pp":
        kl = torch.where(response_mask, old_log_prob - ref_log_prob, torch.zeros_like(mask))
        token_level_scores = torch.zeros_like(mask)
        token_level_scores[torch.arange(B), response_mask.sum(-1) - 1] = scores
        token_level_rewards = token_level_scores - kl_coef * kl
        returns = torch.zeros_like(mask)
        running = torch.zeros(B, dtype=scores.dtype)
        for t in reversed(range(T)):
            running = token_level_rewards[:, t] + running
            returns[:, t] = running
            running = running * mask[:, t]
        return masked_whiten(returns, mask) * mask
    g = scores.view(-1, group_size)
    centred = (g - g.mean(dim=1, keepdim=True)).reshape(-1, 1).expand(B, T) * mask
    if estimator == "dr_grpo":
        return centred
    return masked_whiten(centred, mask) * mask

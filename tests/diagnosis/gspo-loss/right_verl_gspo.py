# expect: right
# framework: torch
# style: verl's compute_policy_loss_gspo: negative_approx_kl_seq, the combined log-ratio, seq-mean-token-mean
import torch


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if clip_low <= 0 or clip_low >= 1 or clip_high <= 0:
        raise ValueError("bad clip range")
    mask = response_mask
    zeros = torch.zeros_like(log_prob)
    log_prob = torch.where(mask, log_prob, zeros)
    old_log_prob = torch.where(mask, old_log_prob.detach(), zeros)
    advantages = torch.where(mask, advantages.detach(), zeros)
    negative_approx_kl = log_prob - old_log_prob
    seq_lengths = mask.sum(dim=-1).clamp(min=1)
    negative_approx_kl_seq = negative_approx_kl.sum(dim=-1) / seq_lengths
    log_seq_importance_ratio = log_prob - log_prob.detach() + negative_approx_kl_seq.detach().unsqueeze(-1)
    seq_importance_ratio = torch.exp(log_seq_importance_ratio)
    pg_losses1 = -advantages * seq_importance_ratio
    pg_losses2 = -advantages * torch.clamp(seq_importance_ratio, 1 - clip_low, 1 + clip_high)
    pg_losses = torch.where(mask, torch.maximum(pg_losses1, pg_losses2), zeros)
    seq_losses = pg_losses.sum(dim=-1) / seq_lengths
    return seq_losses.mean(), torch.exp(negative_approx_kl_seq).detach()

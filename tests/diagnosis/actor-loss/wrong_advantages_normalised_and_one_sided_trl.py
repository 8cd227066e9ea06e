# expect: actor-advantages-normalised clip-fraction-one-sided
# framework: torch
# style: TRL-like where-based masked sums, clip as max(min(x, hi), lo); whitened advantages and a one-sided clip fraction
import math

import torch


def masked_sum(x, mask, dim=None):
    zeros = torch.zeros_like(x)
    return torch.where(mask, x, zeros).sum() if dim is None else torch.where(mask, x, zeros).sum(dim)



def _validate(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction):
    if not (log_probs_new.shape == log_probs_old.shape == advantages.shape):
        raise ValueError("log_probs_new, log_probs_old and advantages must have the same shape")
    if log_probs_new.dim() != 2 or log_probs_new.numel() == 0:
        raise ValueError("expected non-empty [batch, seq_len] tensors")
    for t in (log_probs_new, log_probs_old, advantages):
        if not torch.isfinite(t).all():
            raise ValueError("inputs must be finite")
    if response_mask is not None:
        if response_mask.dtype != torch.bool or response_mask.shape != log_probs_new.shape:
            raise ValueError("response_mask must be a bool tensor of the same shape")
        if not response_mask.any(dim=-1).all():
            raise ValueError("every response needs at least one valid token")
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be finite and >= 0")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError(f"unknown reduction {reduction!r}")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    _validate(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    padding_mask = torch.ones_like(log_probs_new, dtype=torch.bool) if response_mask is None else response_mask
    n_tokens = padding_mask.sum()
    seq_lens = padding_mask.sum(dim=1)
    mb_advantage = advantages.detach()
    mu = masked_sum(mb_advantage, padding_mask) / n_tokens
    sd = torch.sqrt(masked_sum((mb_advantage - mu) ** 2, padding_mask) / (n_tokens - 1))
    mb_advantage = (mb_advantage - mu) / (sd + 1e-8)
    logprobs_diff = log_probs_new - log_probs_old.detach()
    ratio = torch.exp(logprobs_diff)
    lo = torch.full_like(ratio, 1.0 - clip_range)
    hi = torch.full_like(ratio, 1.0 + clip_range)
    pg_losses = -mb_advantage * ratio
    pg_losses2 = -mb_advantage * torch.max(torch.min(ratio, hi), lo)
    pg_loss_max = torch.max(pg_losses, pg_losses2)
    if reduction == "token_mean":
        pg_loss = masked_sum(pg_loss_max, padding_mask) / n_tokens
    else:
        pg_loss = (masked_sum(pg_loss_max, padding_mask, dim=1) / seq_lens).mean()
    with torch.no_grad():
        d = logprobs_diff.detach()
        rr = ratio.detach()
        approxkl = (masked_sum((rr - 1) - d, padding_mask) / n_tokens).item()
        pg_clipfrac = (masked_sum((rr - 1 > clip_range).float(), padding_mask) / n_tokens).item()
    return pg_loss, {"approx_kl": approxkl, "clip_fraction": pg_clipfrac, "valid_tokens": int(n_tokens)}

# expect: actor-dual-clip
# framework: torch
# style: OpenRLHF masked_mean(dim) with a float action_mask; OpenRLHF dual_clip = 5
import math

import torch


def masked_mean(tensor, mask, dim=None):
    if mask is None:
        return tensor.mean(dim=dim) if dim is not None else tensor.mean()
    return (tensor * mask).sum(dim=dim) / mask.sum(dim=dim)


def _bad(msg):
    raise ValueError(msg)


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    shape = log_probs_new.shape
    if log_probs_old.shape != shape or advantages.shape != shape:
        _bad("all inputs must share one shape")
    if len(shape) != 2 or log_probs_new.numel() == 0:
        _bad("expected a non-empty [batch, seq_len] batch")
    if not (torch.isfinite(log_probs_new).all() and torch.isfinite(log_probs_old).all()
            and torch.isfinite(advantages).all()):
        _bad("non-finite values in the inputs")
    if response_mask is not None:
        if response_mask.dtype != torch.bool or response_mask.shape != shape:
            _bad("response_mask must be bool with the same shape")
        if (response_mask.sum(-1) == 0).any():
            _bad("empty response")
    if not (isinstance(clip_range, (int, float)) and math.isfinite(clip_range) and clip_range >= 0):
        _bad("bad clip_range")
    if reduction not in {"token_mean", "sequence_mean"}:
        _bad("bad reduction")
    action_mask = None if response_mask is None else response_mask.float()
    advantages = advantages.detach()
    log_ratio = log_probs_new - log_probs_old.detach()
    ratio = log_ratio.exp()
    surr1 = ratio * advantages
    surr2 = ratio.clamp(1 - clip_range, 1 + clip_range) * advantages
    loss = -torch.min(surr1, surr2)
    loss = torch.where(advantages < 0, torch.min(loss, -5.0 * advantages), loss)
    if reduction == "token_mean":
        loss = masked_mean(loss, action_mask)
    else:
        loss = masked_mean(loss, action_mask, dim=-1).mean()
    with torch.no_grad():
        lr = log_ratio.detach()
        rho = lr.exp()
        approx_kl = masked_mean((rho - 1) - lr, action_mask)
        clip_fraction = masked_mean(((rho - 1).abs() > clip_range).float(), action_mask)
        n_valid = int(log_probs_new.numel() if action_mask is None else action_mask.sum().item())
    return loss, {"approx_kl": float(approx_kl), "clip_fraction": float(clip_fraction), "valid_tokens": n_valid}

# expect: right
# framework: torch
# style: OpenRLHF PolicyLoss module (token_level_loss switch), separate validator
import math

import torch
import torch.nn as nn


def masked_mean(tensor, mask, dim=None):
    if dim is None:
        return (tensor * mask).sum() / mask.sum()
    return (tensor * mask).sum(dim=dim) / mask.sum(dim=dim)


class PolicyLoss(nn.Module):
    def __init__(self, clip_eps: float = 0.2, token_level_loss: bool = True):
        super().__init__()
        self.clip_eps = clip_eps
        self.token_level_loss = token_level_loss

    def forward(self, log_probs, old_log_probs, advantages, action_mask):
        ratio = (log_probs - old_log_probs).exp()
        surr1 = ratio * advantages
        surr2 = ratio.clamp(1 - self.clip_eps, 1 + self.clip_eps) * advantages
        loss = -torch.min(surr1, surr2)
        if self.token_level_loss:
            return masked_mean(loss, action_mask)
        return masked_mean(loss, action_mask, dim=-1).mean()


def validate(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction):
    ref = log_probs_new.shape
    if log_probs_old.shape != ref or advantages.shape != ref:
        raise ValueError("shape mismatch")
    if len(ref) != 2 or 0 in ref:
        raise ValueError("expected [batch, seq_len], non-empty")
    if not torch.stack([torch.isfinite(t).all() for t in (log_probs_new, log_probs_old, advantages)]).all():
        raise ValueError("non-finite")
    if response_mask is not None:
        if response_mask.dtype != torch.bool or response_mask.shape != ref or not response_mask.any(-1).all():
            raise ValueError("bad response_mask")
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("bad clip_range")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError("bad reduction")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    validate(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    mask_bool = torch.ones_like(log_probs_new, dtype=torch.bool) if response_mask is None else response_mask
    action_mask = mask_bool.to(log_probs_new.dtype)
    policy_loss = PolicyLoss(clip_range, token_level_loss=(reduction == "token_mean"))
    loss = policy_loss(log_probs_new, log_probs_old.detach(), advantages.detach(), action_mask)
    with torch.no_grad():
        # k3 of the drill: (ratio - 1) - log ratio with log ratio = new - old
        lr = (log_probs_new - log_probs_old).detach()
        k3 = lr.exp() - 1 - lr
        approx_kl = masked_mean(k3.to(action_mask.dtype), action_mask).item()
        clip_fraction = masked_mean(((lr.exp() - 1).abs() > clip_range).to(action_mask.dtype), action_mask).item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction, "valid_tokens": int(mask_bool.sum())}

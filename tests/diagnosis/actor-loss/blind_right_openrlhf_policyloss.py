# expect: right
# framework: torch
# style: OpenRLHF PolicyLoss shape (surr1/surr2, -min), masked_mean; approx_kl with OpenRLHF's compute_approx_kl k3 clamp
import torch


def masked_mean(tensor, mask, dim=None):
    tensor = tensor.masked_fill(~mask, 0.0)
    if dim is None:
        return tensor.sum() / mask.sum()
    return tensor.sum(dim=dim) / mask.sum(dim=dim)


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    if log_probs_new.shape != log_probs_old.shape or log_probs_old.shape != advantages.shape:
        raise ValueError("log_probs_new, log_probs_old and advantages must share a shape")
    if log_probs_new.dim() != 2 or log_probs_new.numel() == 0:
        raise ValueError("inputs must be non-empty [batch, seq_len]")
    if not all(torch.isfinite(x).all() for x in (log_probs_new, log_probs_old, advantages)):
        raise ValueError("inputs hold NaN or inf")
    if response_mask is None:
        response_mask = torch.ones_like(log_probs_new, dtype=torch.bool)
    if response_mask.dtype != torch.bool or response_mask.shape != log_probs_new.shape:
        raise ValueError("response_mask must be a bool tensor of the same shape")
    if (response_mask.sum(dim=-1) == 0).any():
        raise ValueError("a row has no valid token")
    import math
    if not isinstance(clip_range, (int, float)) or not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be finite and >= 0")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError(f"unknown reduction {reduction}")

    log_ratio = (log_probs_new - log_probs_old.detach()).masked_fill(~response_mask, 0.0)
    ratio = log_ratio.exp()
    adv = advantages.detach()
    surr1 = ratio * adv
    surr2 = ratio.clamp(1 - clip_range, 1 + clip_range) * adv
    loss_tok = -torch.min(surr1, surr2)
    if reduction == "token_mean":
        loss = masked_mean(loss_tok, response_mask)
    else:
        loss = masked_mean(loss_tok, response_mask, dim=-1).mean()

    with torch.no_grad():
        lr = log_ratio.detach()
        k3 = (lr.exp() - 1) - lr
        k3 = k3.clamp(min=-10, max=10)
        approx_kl = masked_mean(k3, response_mask).item()
        frac = masked_mean(((ratio.detach() - 1).abs() > clip_range).float(), response_mask).item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": frac, "valid_tokens": int(response_mask.sum())}

# expect: metrics-include-padding
# framework: torch
# style: TorchRL log-space clip; the diagnostics taken over the whole [batch, seq_len] grid
import math

import torch


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    tensors = [log_probs_new, log_probs_old, advantages]
    if len({tuple(t.shape) for t in tensors}) != 1:
        raise ValueError("shape mismatch")
    if log_probs_new.dim() != 2 or min(log_probs_new.shape) == 0:
        raise ValueError("need a non-empty 2-D batch")
    if not all(bool(torch.isfinite(t).all()) for t in tensors):
        raise ValueError("NaN or inf in the inputs")
    if response_mask is None:
        mask = torch.ones(log_probs_new.shape, dtype=torch.bool)
    else:
        if not torch.is_tensor(response_mask) or response_mask.dtype != torch.bool \
                or response_mask.shape != log_probs_new.shape:
            raise ValueError("response_mask must be a bool tensor shaped like the log-probs")
        if not bool(response_mask.any(dim=1).all()):
            raise ValueError("a row of response_mask has no True")
        mask = response_mask
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be finite and non-negative")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError("reduction must be 'token_mean' or 'sequence_mean'")

    advantage = advantages.detach()
    log_weight = log_probs_new - log_probs_old.detach()
    gain1 = log_weight.exp() * advantage
    if clip_range < 1:
        log_weight_clip = log_weight.clamp(math.log1p(-clip_range), math.log1p(clip_range))
        gain2 = log_weight_clip.exp() * advantage
    else:
        gain2 = log_weight.exp().clamp(1 - clip_range, 1 + clip_range) * advantage
    loss_objective = -torch.min(gain1, gain2)

    if reduction == "token_mean":
        loss = loss_objective[mask].mean()
    else:
        rows = [loss_objective[b][mask[b]].mean() for b in range(mask.shape[0])]
        loss = torch.stack(rows).mean()

    with torch.no_grad():
        lw = log_weight.detach()
        ratio = lw.exp()
        metrics = {
            "approx_kl": ((ratio - 1) - lw).mean().item(),
            "clip_fraction": ((ratio - 1).abs() > clip_range).float().mean().item(),
            "valid_tokens": int(mask.sum().item()),
        }
    return loss, metrics

# expect: right
# framework: torch
# style: verl idiom (loss space: max of pg1/pg2, min with -A c), masked helpers
import torch


def masked_mean(x, mask):
    return torch.where(mask, x, torch.zeros_like(x)).sum() / mask.sum()


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None:
        if dual_clip <= 1.0:
            raise ValueError(f"dual_clip must be > 1, got {dual_clip}")
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    m = response_mask
    negative_approx_kl = torch.where(m, log_prob - old_log_prob.detach(), torch.zeros_like(log_prob))
    negative_approx_kl = torch.clamp(negative_approx_kl, min=-20.0, max=20.0)
    ratio = torch.exp(negative_approx_kl)
    A = torch.where(m, advantages.detach(), torch.zeros_like(log_prob))
    pg_losses1 = -A * ratio
    pg_losses2 = -A * torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    pg_clipfrac = masked_mean((pg_losses2 > pg_losses1).to(log_prob.dtype), m)
    if dual_clip is not None:
        pg_losses3 = -A * dual_clip
        clip_pg_losses2 = torch.min(pg_losses3, clip_pg_losses1)
        pg_losses = torch.where(A < 0, clip_pg_losses2, clip_pg_losses1)
    else:
        pg_losses = clip_pg_losses1
    seq = torch.where(m, pg_losses, torch.zeros_like(pg_losses)).sum(-1)
    if loss_agg_mode == "token-mean":
        loss = seq.sum() / m.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (seq / m.sum(-1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = seq.mean()
    else:
        loss = (seq / m.shape[-1]).mean()
    with torch.no_grad():
        kl3 = masked_mean(ratio - 1 - negative_approx_kl, m)
        r = ratio[m]
    return loss, {"clip_frac": pg_clipfrac.item(), "approx_kl": kl3.item(), "ratio_min": r.min().item(),
                  "ratio_max": r.max().item()}

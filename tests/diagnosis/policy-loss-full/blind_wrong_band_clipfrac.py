# expect: clip-fraction-outside-band
# framework: torch
# style: CleanRL's clip fraction
import torch


MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def _agg(loss_mat, mask, mode):
    x = torch.where(mask, loss_mat, torch.zeros((), dtype=loss_mat.dtype))
    if mode == "token-mean":
        return x.sum() / mask.sum()
    seq = x.sum(-1)
    if mode == "seq-mean-token-mean":
        return (seq / mask.sum(-1)).mean()
    if mode == "seq-mean-token-sum":
        return seq.mean()
    return (seq / loss_mat.shape[-1]).mean()


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2,
                        clip_high=0.2, dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip must be > 1")
    mask = response_mask
    zero = torch.zeros((), dtype=log_prob.dtype)

    lp = torch.where(mask, log_prob, zero)
    old = torch.where(mask, old_log_prob.detach(), zero)
    adv = torch.where(mask, advantages.detach(), zero)
    log_ratio = lp - old
    ratio = torch.exp(log_ratio)
    pg_losses = -adv * ratio
    pg_losses2 = -adv * ratio.clamp(1 - clip_low, 1 + clip_high)
    per_tok = torch.max(pg_losses, pg_losses2)
    if dual_clip is not None:
        per_tok = torch.where(adv < 0, torch.min(per_tok, -dual_clip * adv), per_tok)
    loss = _agg(per_tok, mask, loss_agg_mode)
    with torch.no_grad():
        r = ratio[mask]
        stats = {"clip_frac": ((r < 1 - clip_low) | (r > 1 + clip_high)).double().mean().item(),
                 "approx_kl": ((r - 1) - log_ratio[mask]).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats

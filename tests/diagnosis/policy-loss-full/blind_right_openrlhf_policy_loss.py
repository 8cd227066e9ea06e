# expect: right
# framework: torch
# style: OpenRLHF's PolicyLoss (surr1/surr2, dual clip with torch.where), masked_fill first
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

    lp = log_prob.masked_fill(~mask, 0.0)
    old = old_log_prob.detach().masked_fill(~mask, 0.0)
    adv = advantages.detach().masked_fill(~mask, 0.0)
    log_ratio = lp - old
    ratio = log_ratio.exp()
    surr1 = ratio * adv
    surr2 = ratio.clamp(1 - clip_low, 1 + clip_high) * adv
    clipped = torch.min(surr1, surr2)
    if dual_clip is not None:
        surr3 = torch.max(clipped, dual_clip * adv)
        clipped = torch.where(adv < 0, surr3, clipped)
    loss = _agg(-clipped, mask, loss_agg_mode)
    with torch.no_grad():
        active = (surr2 < surr1)[mask]
        r = ratio.detach()[mask]
        stats = {"clip_frac": active.float().mean().item(),
                 "approx_kl": (torch.expm1(log_ratio.detach()[mask]) - log_ratio.detach()[mask]).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats

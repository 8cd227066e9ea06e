# expect: policy-clip-bounds-swapped
# framework: torch
# style: explicit min/max clamps, the widths exchanged
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError("loss_agg_mode")
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip")
    ok = response_mask
    lr = (log_prob - old_log_prob.detach()).masked_fill(~ok, 0.0)
    adv = advantages.detach().masked_fill(~ok, 0.0)
    ratio = lr.exp()
    bounded = torch.minimum(torch.maximum(ratio, torch.full_like(ratio, 1 - clip_high)),
                            torch.full_like(ratio, 1 + clip_low))
    surr, surr_clip = ratio * adv, bounded * adv
    obj = torch.min(surr, surr_clip)
    if dual_clip is not None:
        obj = torch.where(adv < 0, torch.max(obj, adv * dual_clip), obj)
    per_row = -obj.sum(-1)
    lens = ok.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = per_row.sum() / lens.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (per_row / lens).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = per_row.mean()
    else:
        loss = (per_row / ok.shape[-1]).mean()
    with torch.no_grad():
        r = ratio[ok]
        return loss, {"clip_frac": float((surr_clip < surr)[ok].double().mean()),
                      "approx_kl": float((r - 1 - lr[ok]).mean()), "ratio_min": float(r.min()),
                      "ratio_max": float(r.max())}

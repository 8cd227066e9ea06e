# expect: policy-dual-clip-positive
# framework: torch
# style: verl loss space, the -A c cap applied to every token
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and not dual_clip > 1.0:
        raise ValueError("dual_clip")
    if loss_agg_mode not in {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"}:
        raise ValueError(loss_agg_mode)
    mask = response_mask
    nkl = torch.where(mask, log_prob - old_log_prob.detach(), torch.zeros_like(log_prob))
    adv = torch.where(mask, advantages.detach(), torch.zeros_like(log_prob))
    ratio = torch.exp(nkl)
    pg1 = -adv * ratio
    pg2 = -adv * torch.clamp(ratio, 1.0 - clip_low, 1.0 + clip_high)
    pg = torch.maximum(pg1, pg2)
    clipfrac = (pg2 > pg1)[mask].double().mean()
    if dual_clip is not None:
        pg = torch.minimum(pg, -adv * dual_clip)
    rows = pg.sum(-1)
    lens = mask.sum(-1)
    loss = {"token-mean": rows.sum() / lens.sum(), "seq-mean-token-mean": (rows / lens).mean(),
            "seq-mean-token-sum": rows.mean(), "seq-mean-token-sum-norm": (rows / mask.size(-1)).mean()}[loss_agg_mode]
    with torch.no_grad():
        v = ratio[mask]
        return loss, {"clip_frac": float(clipfrac), "approx_kl": float((v - 1 - nkl[mask]).mean()),
                      "ratio_min": float(v.min()), "ratio_max": float(v.max())}

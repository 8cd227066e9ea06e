# expect: policy-padding-nan
# framework: torch
# style: float mask multiplied into the advantages, loss summed over all positions
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip")
    if loss_agg_mode not in {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"}:
        raise ValueError(loss_agg_mode)
    w = response_mask.to(log_prob.dtype)
    lr = log_prob - old_log_prob.detach()
    ratio = lr.exp()
    A = advantages.detach() * w
    pg1 = -A * ratio
    pg2 = -A * ratio.clamp(1 - clip_low, 1 + clip_high)
    pg = torch.max(pg1, pg2)
    if dual_clip is not None:
        pg = torch.where(A < 0, torch.min(pg, -A * dual_clip), pg)
    seq = pg.sum(-1)
    lens = w.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = seq.sum() / lens.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (seq / lens).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = seq.mean()
    else:
        loss = (seq / w.shape[-1]).mean()
    mask = response_mask
    with torch.no_grad():
        r = ratio[mask]
        return loss, {"clip_frac": (pg2 > pg1)[mask].double().mean().item(),
                      "approx_kl": (r - 1 - lr[mask]).mean().item(), "ratio_min": r.min().item(),
                      "ratio_max": r.max().item()}

# expect: strict-comparison
# framework: torch
# style: OpenRLHF-style, clip fraction with ge on the surrogates
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2,
                        clip_high=0.2, dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in MODES:
        raise ValueError("mode")
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip")
    m = response_mask
    lp = log_prob.masked_fill(~m, 0.0)
    old = old_log_prob.detach().masked_fill(~m, 0.0)
    adv = advantages.detach().masked_fill(~m, 0.0)
    lr = lp - old
    r = lr.exp()
    s1 = r * adv
    s2 = r.clamp(1 - clip_low, 1 + clip_high) * adv
    obj = torch.min(s1, s2)
    if dual_clip is not None:
        obj = torch.where(adv < 0, torch.max(obj, dual_clip * adv), obj)
    per = (-obj).masked_fill(~m, 0.0)
    if loss_agg_mode == "token-mean":
        loss = per.sum() / m.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (per.sum(-1) / m.sum(-1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = per.sum(-1).mean()
    else:
        loss = (per.sum(-1) / m.shape[-1]).mean()
    with torch.no_grad():
        rv = r[m]
        stats = {"clip_frac": (s1 >= s2)[m].double().mean().item(),
                 "approx_kl": (torch.expm1(lr[m]) - lr[m]).mean().item(),
                 "ratio_min": rv.min().item(), "ratio_max": rv.max().item()}
    return loss, stats

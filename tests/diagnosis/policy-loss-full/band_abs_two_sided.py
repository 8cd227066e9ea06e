# expect: clip-fraction-outside-band
# framework: torch
# style: CleanRL-style clip fraction, generalised to the asymmetric band
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    m = response_mask
    lr = torch.where(m, log_prob - old_log_prob.detach(), torch.zeros_like(log_prob))
    a = torch.where(m, advantages.detach(), torch.zeros_like(log_prob))
    r = lr.exp()
    obj = torch.minimum(r * a, torch.clamp(r, 1 - clip_low, 1 + clip_high) * a)
    if dual_clip is not None:
        obj = torch.where(a < 0, torch.maximum(obj, dual_clip * a), obj)
    rs, n = (-obj).sum(-1), m.sum(-1)
    loss = {"token-mean": rs.sum() / n.sum(), "seq-mean-token-mean": (rs / n).mean(),
            "seq-mean-token-sum": rs.mean(), "seq-mean-token-sum-norm": (rs / m.shape[-1]).mean()}[loss_agg_mode]
    with torch.no_grad():
        rv = r[m]
        outside = (rv < 1 - clip_low) | (rv > 1 + clip_high)
        return loss, {"clip_frac": outside.double().mean().item(), "approx_kl": (rv - 1 - lr[m]).mean().item(),
                      "ratio_min": rv.min().item(), "ratio_max": rv.max().item()}

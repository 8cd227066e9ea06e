# expect: policy-dual-clip-as-min
# framework: torch
# style: dual clip as a min on A < 0
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
    r = torch.exp(lr)
    s1 = r * a
    s2 = torch.clamp(r, 1 - clip_low, 1 + clip_high) * a
    obj = torch.minimum(s1, s2)
    if dual_clip is not None:
        obj = torch.where(a < 0, torch.minimum(obj, dual_clip * a), obj)
    tok = -obj
    rs, n = tok.sum(-1), m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = rs.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (rs / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = rs.mean()
    else:
        loss = (rs / tok.shape[-1]).mean()
    with torch.no_grad():
        return loss, {"clip_frac": (s2 < s1)[m].double().mean().item(), "approx_kl": (r - 1 - lr)[m].mean().item(),
                      "ratio_min": r[m].min().item(), "ratio_max": r[m].max().item()}

# expect: policy-dual-clip-positive
# framework: torch
# style: dual clip as an unconditional max with c A
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    z = torch.zeros((), dtype=log_prob.dtype)
    lr = torch.where(m, log_prob - old_log_prob.detach(), z)
    a = torch.where(m, advantages.detach(), z)
    r = lr.exp()
    s1, s2 = r * a, r.clamp(1 - clip_low, 1 + clip_high) * a
    obj = torch.min(s1, s2)
    if dual_clip is not None:
        obj = torch.max(obj, dual_clip * a)
    tok = -obj
    if loss_agg_mode == "token-mean":
        loss = tok.sum() / m.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (tok.sum(1) / m.sum(1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = tok.sum(1).mean()
    else:
        loss = (tok.sum(1) / m.shape[1]).mean()
    with torch.no_grad():
        st = {"clip_frac": (s2 < s1)[m].double().mean().item(), "approx_kl": (r - 1 - lr)[m].mean().item(),
              "ratio_min": r[m].min().item(), "ratio_max": r[m].max().item()}
    return loss, st

# expect: right
# framework: torch
# style: every per-token quantity on the flat valid tokens (masked_select), scattered back for the sequence modes
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and not (dual_clip > 1):
        raise ValueError(dual_clip)
    m = response_mask
    lp = torch.masked_select(log_prob, m)
    old = torch.masked_select(old_log_prob.detach(), m)
    A = torch.masked_select(advantages.detach(), m)
    log_r = lp - old
    r = torch.exp(log_r)
    s1 = r * A
    s2 = torch.clamp(r, min=1 - clip_low, max=1 + clip_high) * A
    obj = torch.min(s1, s2)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, A * dual_clip), obj)
    tok_loss = -obj
    if loss_agg_mode == "token-mean":
        loss = tok_loss.mean()
    else:
        grid = torch.zeros(log_prob.shape, dtype=tok_loss.dtype).masked_scatter(m, tok_loss)
        seq = grid.sum(-1)
        if loss_agg_mode == "seq-mean-token-mean":
            seq = seq / m.sum(-1)
        elif loss_agg_mode == "seq-mean-token-sum-norm":
            seq = seq / log_prob.shape[-1]
        loss = seq.mean()
    with torch.no_grad():
        stats = {
            "clip_frac": (s2 < s1).double().mean().item(),
            "approx_kl": (r - 1 - log_r).mean().item(),
            "ratio_min": r.min().item(),
            "ratio_max": r.max().item(),
        }
    return loss, stats

# expect: right
# framework: torch
# style: float64 compute for the surrogate, loss cast back to the input dtype; weights per mode
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and dual_clip <= 1.0:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    B, T = log_prob.shape
    fm = m.double()
    n_b = fm.sum(-1, keepdim=True)
    weights = {
        "token-mean": fm / fm.sum(),
        "seq-mean-token-mean": fm / n_b / B,
        "seq-mean-token-sum": fm / B,
        "seq-mean-token-sum-norm": fm / T / B,
    }
    if loss_agg_mode not in weights:
        raise ValueError(loss_agg_mode)
    lp = torch.where(m, log_prob, torch.zeros_like(log_prob)).double()
    old = torch.where(m, old_log_prob.detach(), torch.zeros_like(log_prob)).double()
    A = torch.where(m, advantages.detach(), torch.zeros_like(log_prob)).double()
    log_r = lp - old
    r = log_r.exp()
    surr = torch.stack([r * A, r.clamp(1 - clip_low, 1 + clip_high) * A]).min(dim=0).values
    if dual_clip is not None:
        surr = torch.where(A < 0, surr.clamp(min=dual_clip * A), surr)
    loss = -(weights[loss_agg_mode] * surr).sum()
    with torch.no_grad():
        active = (r.clamp(1 - clip_low, 1 + clip_high) * A < r * A) & m
        rv = r[m]
        stats = {
            "clip_frac": (active.sum() / m.sum()).item(),
            "approx_kl": (torch.expm1(log_r[m]) - log_r[m]).mean().item(),
            "ratio_min": rv.min().item(),
            "ratio_max": rv.max().item(),
        }
    return loss.to(log_prob.dtype), stats

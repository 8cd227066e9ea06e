# expect: policy-stats-over-padding
# framework: torch
# style: statistics from the raw ratio tensor, the loss from the sanitised one
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    with torch.no_grad():
        raw_log_r = log_prob.detach() - old_log_prob.detach()
        raw_r = raw_log_r.exp()
        raw_A = advantages.detach()
        raw_clipped = torch.clamp(raw_r, 1 - clip_low, 1 + clip_high) * raw_A < raw_r * raw_A
        stats = {"clip_frac": raw_clipped.double().mean().item(),
                 "approx_kl": (raw_r - 1 - raw_log_r).mean().item(),
                 "ratio_min": raw_r.min().item(), "ratio_max": raw_r.max().item()}
    z = torch.zeros_like(log_prob)
    log_r = torch.where(m, log_prob - old_log_prob.detach(), z)
    A = torch.where(m, advantages.detach(), z)
    r = log_r.exp()
    obj = torch.min(r * A, torch.clamp(r, 1 - clip_low, 1 + clip_high) * A)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, dual_clip * A), obj)
    L = torch.where(m, -obj, z)
    n = m.sum(-1)
    loss = {"token-mean": L.sum() / n.sum(), "seq-mean-token-mean": (L.sum(-1) / n).mean(),
            "seq-mean-token-sum": L.sum(-1).mean(), "seq-mean-token-sum-norm": (L.sum(-1) / L.shape[-1]).mean()}[loss_agg_mode]
    return loss, stats

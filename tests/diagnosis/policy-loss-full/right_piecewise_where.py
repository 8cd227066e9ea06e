# expect: right
# framework: torch
# style: clip written as two torch.where branches on the sign of A
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and not dual_clip > 1.0:
        raise ValueError("dual_clip > 1 required")
    mask = response_mask
    zero = torch.zeros((), dtype=log_prob.dtype)
    lr = torch.where(mask, log_prob - old_log_prob.detach(), zero)
    A = torch.where(mask, advantages.detach(), zero)
    r = torch.exp(lr)
    capped = torch.where(A >= 0, torch.clamp(r, max=1 + clip_high), torch.clamp(r, min=1 - clip_low))
    obj = capped * A
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.clamp(obj, min=dual_clip * A), obj)
    tok = -obj
    sums, cnt = tok.sum(1), mask.sum(1)
    loss = {"token-mean": lambda: sums.sum() / cnt.sum(), "seq-mean-token-mean": lambda: (sums / cnt).mean(),
            "seq-mean-token-sum": lambda: sums.mean(),
            "seq-mean-token-sum-norm": lambda: (sums / mask.shape[1]).mean()}[loss_agg_mode]()
    active = ((A > 0) & (r > 1 + clip_high)) | ((A < 0) & (r < 1 - clip_low))
    with torch.no_grad():
        return loss, {"clip_frac": active[mask].double().mean().item(),
                      "approx_kl": torch.expm1(lr)[mask].sub(lr[mask]).mean().item(),
                      "ratio_min": r[mask].min().item(), "ratio_max": r[mask].max().item()}

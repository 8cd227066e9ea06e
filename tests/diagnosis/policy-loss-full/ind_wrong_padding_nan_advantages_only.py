# expect: policy-padding-nan
# framework: torch
# style: only the advantages sanitised; the log-probs go into exp raw and the loss is masked by selection
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    A = torch.where(m, advantages.detach(), torch.zeros_like(advantages))
    ratio = torch.exp(log_prob - old_log_prob.detach())
    obj = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_low, 1 + clip_high) * A)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, dual_clip * A), obj)
    rows = []
    for b in range(obj.shape[0]):
        tok = -obj[b][m[b]]
        if loss_agg_mode == "token-mean":
            rows.append(tok)
        elif loss_agg_mode == "seq-mean-token-mean":
            rows.append(tok.mean())
        elif loss_agg_mode == "seq-mean-token-sum":
            rows.append(tok.sum())
        else:
            rows.append(tok.sum() / obj.shape[-1])
    loss = torch.cat(rows).mean() if loss_agg_mode == "token-mean" else torch.stack(rows).mean()
    with torch.no_grad():
        r = ratio[m]
        a = A[m]
        active = torch.clamp(r, 1 - clip_low, 1 + clip_high) * a < r * a
        stats = {"clip_frac": active.double().mean().item(), "approx_kl": (r - 1 - torch.log(r)).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats

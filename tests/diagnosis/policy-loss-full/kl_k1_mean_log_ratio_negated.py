# expect: policy-kl-k1
# framework: torch
# style: KL read as -mean(log ratio) on the flat valid tokens
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    valid = response_mask
    lr = (log_prob - old_log_prob.detach()).masked_fill(~valid, 0.0)
    A = advantages.detach().masked_fill(~valid, 0.0)
    ratio = lr.exp()
    unc, clp = ratio * A, ratio.clamp(1 - clip_low, 1 + clip_high) * A
    obj = torch.minimum(unc, clp)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.maximum(obj, dual_clip * A), obj)
    rows = (-obj).sum(-1)
    n = valid.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = rows.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (rows / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = rows.mean()
    else:
        loss = (rows / valid.shape[-1]).mean()
    with torch.no_grad():
        lv = lr[valid]
        stats = {"clip_frac": float((clp < unc)[valid].double().mean()), "approx_kl": float(-lv.mean()),
                 "ratio_min": float(lv.exp().min()), "ratio_max": float(lv.exp().max())}
    return loss, stats

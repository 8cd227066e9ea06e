# expect: policy-dual-clip-as-min
# framework: torch
# style: clamp(max=c A) on the negative-advantage tokens
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    modes = ["token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"]
    if loss_agg_mode not in modes:
        raise ValueError(f"{loss_agg_mode} not in {modes}")
    if dual_clip is not None and dual_clip <= 1.0:
        raise ValueError("dual_clip")
    valid = response_mask
    lr = (log_prob - old_log_prob.detach()).masked_fill(~valid, 0)
    A = advantages.detach().masked_fill(~valid, 0)
    ratio = lr.exp()
    unc = ratio * A
    clp = ratio.clamp(1 - clip_low, 1 + clip_high) * A
    obj = torch.min(unc, clp)
    if dual_clip is not None:
        neg = A < 0
        obj = torch.where(neg, torch.clamp(obj, max=dual_clip * A), obj)
    loss_tok = -obj
    rows = loss_tok.sum(-1)
    n = valid.sum(-1)
    loss = (rows.sum() / n.sum() if loss_agg_mode == "token-mean" else
            (rows / n).mean() if loss_agg_mode == "seq-mean-token-mean" else
            rows.mean() if loss_agg_mode == "seq-mean-token-sum" else (rows / valid.shape[-1]).mean())
    with torch.no_grad():
        rv = ratio[valid]
        st = {"clip_frac": float((clp < unc)[valid].double().mean()), "approx_kl": float((rv - 1 - lr[valid]).mean()),
              "ratio_min": float(rv.min()), "ratio_max": float(rv.max())}
    return loss, st

# expect: policy-dual-clip-positive policy-kl-k1
# framework: torch
# style: dual clip without the sign test, and the k1 KL a trainer logs as ppo_kl
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip must be greater than 1")
    mask = response_mask
    lr = torch.where(mask, log_prob - old_log_prob.detach(), torch.zeros_like(log_prob))
    A = torch.where(mask, advantages.detach(), torch.zeros_like(log_prob))
    ratio = lr.exp()
    surr1 = ratio * A
    surr2 = ratio.clamp(1 - clip_low, 1 + clip_high) * A
    obj = torch.min(surr1, surr2)
    if dual_clip is not None:
        obj = torch.max(obj, dual_clip * A)
    rows = (-obj).sum(-1)
    n = mask.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = rows.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (rows / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = rows.mean()
    else:
        loss = (rows / mask.shape[-1]).mean()
    with torch.no_grad():
        r = ratio[mask]
        return loss, {"clip_frac": (surr2 < surr1)[mask].double().mean().item(),
                      "approx_kl": (-lr[mask]).mean().item(), "ratio_min": r.min().item(),
                      "ratio_max": r.max().item()}

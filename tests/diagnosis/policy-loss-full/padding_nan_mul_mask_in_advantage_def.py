# expect: policy-padding-nan
# framework: torch
# style: "padding has advantage 0 so it contributes nothing"
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown mode {loss_agg_mode}")
    if dual_clip is not None and dual_clip <= 1.0:
        raise ValueError("dual_clip must be > 1")
    A = advantages.detach() * response_mask
    logr = log_prob - old_log_prob.detach()
    r = torch.exp(logr)
    clipped = torch.clamp(r, 1.0 - clip_low, 1.0 + clip_high) * A
    unclipped = r * A
    objective = torch.min(unclipped, clipped)
    if dual_clip is not None:
        objective = torch.where(A < 0, torch.max(objective, A * dual_clip), objective)
    token_loss = -objective
    counts = response_mask.sum(dim=1)
    sums = token_loss.sum(dim=1)
    if loss_agg_mode == "token-mean":
        loss = sums.sum() / counts.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (sums / counts).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = sums.mean()
    else:
        loss = (sums / response_mask.shape[1]).mean()
    with torch.no_grad():
        v = response_mask
        return loss, {"clip_frac": float((clipped < unclipped)[v].double().mean()),
                      "approx_kl": float(((r - 1) - logr)[v].mean()),
                      "ratio_min": float(r[v].min()), "ratio_max": float(r[v].max())}

"""The policy loss of an LLM PPO trainer: the masked clipped surrogate with asymmetric and dual clip, an
aggregation mode, and the statistics a trainer logs."""
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    """(loss, stats) over the valid tokens of a right-padded batch; all tensors [B, T]."""
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode!r}; expected one of {MODES}")
    if dual_clip is not None and not dual_clip > 1.0:
        raise ValueError("dual_clip must be greater than 1")

    mask = response_mask
    zero = torch.zeros((), dtype=log_prob.dtype)
    # Padding may hold anything (a -inf log-prob, NaN): replace it before any arithmetic, so that
    # neither the loss nor its gradient can become NaN. Old log-probs and advantages are data.
    log_ratio = log_prob - old_log_prob.detach()
    adv = torch.where(mask, advantages.detach(), zero)  # only the advantages sanitised
    ratio = torch.exp(log_ratio)

    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1.0 - clip_low, 1.0 + clip_high) * adv
    objective = torch.minimum(unclipped, clipped)

    # Dual clip bounds the objective from below on negative advantages only (Ye et al., 2020).
    if dual_clip is not None:
        objective = torch.where(adv < 0, torch.maximum(objective, dual_clip * adv), objective)

    # Padding contributes exactly 0 to every sum (its advantage is 0).
    # the padding is selected away only at the end: the value is right, the gradient is NaN there
    per_token = torch.where(mask, -objective, zero)
    token_counts = mask.sum(dim=-1)
    seq_sums = per_token.sum(dim=-1)
    if loss_agg_mode == "token-mean":
        loss = per_token.sum() / mask.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (seq_sums / token_counts).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = seq_sums.mean()
    else:
        loss = (seq_sums / mask.shape[-1]).mean()

    # Statistics over valid tokens only, without gradient. clip_frac: the clipped branch is active.
    with torch.no_grad():
        valid_ratio = ratio[mask]
        clip_frac = (clipped < unclipped)[mask].to(torch.float64).mean()
        approx_kl = ((ratio - 1.0) - log_ratio)[mask].mean()
    stats = {
        "clip_frac": float(clip_frac),
        "approx_kl": float(approx_kl),
        "ratio_min": float(valid_ratio.min()),
        "ratio_max": float(valid_ratio.max()),
    }
    return loss, stats

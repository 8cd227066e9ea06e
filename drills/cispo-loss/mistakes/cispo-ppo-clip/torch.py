"""CISPO: REINFORCE on log pi, each token weighted by its clipped, detached importance ratio."""
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    """CISPO's loss and the per-token weights (see prompt.md).

    log_prob, old_log_prob, advantages: float tensors [B, T]; response_mask: bool [B, T], right-padded.
    Returns (loss, weights): a 0-d tensor and a [B, T] tensor, 0 on padding.
    """
    if eps_high <= 0 or (eps_low is not None and not 0 < eps_low <= 1):
        raise ValueError("eps_high must be > 0 and eps_low, when given, in (0, 1]")
    zero = torch.zeros((), dtype=log_prob.dtype)
    # The old log-probs and the advantages are data of this update.
    old_log_prob, advantages = old_log_prob.detach(), advantages.detach()
    # Padding may hold NaN or inf: select, never multiply by the mask.
    log_prob = torch.where(response_mask, log_prob, zero)
    old_log_prob = torch.where(response_mask, old_log_prob, zero)
    advantages = torch.where(response_mask, advantages, zero)

    ratio = torch.exp(log_prob - old_log_prob)
    # The weight only scales each token's gradient: no gradient flows through it.
    weights = ratio.clamp(max=1.0 + eps_high).detach()
    if eps_low is not None:
        weights = weights.clamp(min=1.0 - eps_low)

    weights = torch.where(response_mask, weights, zero)
    clipped = ratio.clamp(max=1.0 + eps_high) if eps_low is None else ratio.clamp(1.0 - eps_low, 1.0 + eps_high)
    per_token = torch.minimum(ratio * advantages, clipped * advantages)

    # One mean over every valid token of the batch.
    loss = -per_token.sum() / response_mask.sum().clamp(min=1)
    return loss, weights

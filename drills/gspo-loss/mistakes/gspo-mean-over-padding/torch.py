"""GSPO: one length-normalised importance ratio per response, clipped, applied to each token's advantage."""
import torch


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    """GSPO(-token) loss and each response's sequence ratio (see prompt.md).

    log_prob, old_log_prob, advantages: float tensors [B, T]; response_mask: bool [B, T], right-padded.
    Returns (loss, seq_ratio): a 0-d tensor and a [B] tensor.
    """
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip_low must be in (0, 1) and clip_high > 0")
    zero = torch.zeros((), dtype=log_prob.dtype)
    old_log_prob, advantages = old_log_prob.detach(), advantages.detach()
    # Padding may hold NaN or inf: select, never multiply by the mask.
    log_prob = torch.where(response_mask, log_prob, zero)
    old_log_prob = torch.where(response_mask, old_log_prob, zero)
    advantages = torch.where(response_mask, advantages, zero)
    lengths = response_mask.sum(dim=-1)

    # log s_i: the mean of the response's token log-ratios (a geometric mean of the ratios).
    seq_log_ratio = (log_prob - old_log_prob).mean(dim=-1)

    # GSPO-token: the value of s_i on every token, the gradient of each token's own log-prob.
    token_ratio = torch.exp(log_prob - log_prob.detach() + seq_log_ratio.detach().unsqueeze(-1))

    unclipped = -advantages * token_ratio
    clipped = -advantages * token_ratio.clamp(1.0 - clip_low, 1.0 + clip_high)
    per_token = torch.where(response_mask, torch.maximum(unclipped, clipped), zero)

    # Each response's token mean, then the mean over responses.
    loss = (per_token.sum(dim=-1) / lengths).mean()
    return loss, torch.exp(seq_log_ratio).detach()

"""Trajectory importance weights, ESS and IS estimates in PyTorch."""
import torch


def trajectory_is(logp, old_logp, mask, returns):
    """Per-trajectory log importance weights, their effective sample size and the plain and
    self-normalised importance-sampling estimates of the return.

    logp, old_logp: float tensors [N, T]; mask: bool tensor [N, T]; returns: float tensor [N].
    Returns (log_w [N], ess, is_estimate, snis_estimate), the last three 0-d tensors.
    """
    if logp.dim() != 2 or logp.shape != old_logp.shape or logp.shape != mask.shape or logp.shape[0] == 0:
        raise ValueError("logp, old_logp and mask must be [N, T] of one shape with N >= 1")
    if returns.shape != (logp.shape[0],):
        raise ValueError("returns must have one entry per trajectory")

    # Sum log-ratios over the policy's tokens only; a product of probabilities underflows.
    log_ratio = torch.where(mask, logp - old_logp, torch.zeros_like(logp))
    log_w = log_ratio.sum(dim=1)
    # ESS = (sum w)^2 / sum w^2, in log space so that log w = +-700 neither overflows nor underflows.
    ess = torch.exp(2.0 * torch.logsumexp(log_w, 0) - torch.logsumexp(2.0 * log_w, 0))
    is_estimate = torch.mean(torch.exp(log_w) * returns)
    normalised = torch.exp(log_w) / log_w.shape[0]
    snis_estimate = torch.sum(normalised * returns)
    return log_w, ess, is_estimate, snis_estimate

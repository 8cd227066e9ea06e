"""Trajectory importance weights, ESS and IS estimates in NumPy: write trajectory_is (see prompt.md)."""
import numpy


def trajectory_is(logp, old_logp, mask, returns):
    """Importance weights of whole trajectories sampled from pi_old, for estimates under pi_theta.

    Args:
        logp: float arrays [N, T], per-token log-probs under pi_theta.
        old_logp: float arrays [N, T], per-token log-probs under pi_old (the sampler).
        mask: bool arrays [N, T], True on the policy's own tokens (not padding, not tool output).
        returns: float arrays [N], the return of each trajectory.

    Returns:
        (log_w [N], ess, is_estimate, snis_estimate).
    """
    raise NotImplementedError

"""PPO's adaptive KL penalty over one iteration, in PyTorch: write kl_penalty_iteration (see prompt.md)."""
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    """PPO's KL-penalty objective for the M minibatches of one iteration, and the adapted beta.

    Args:
        new_logp: float tensor [M, N], log-probs of the sampled actions under the policy being trained.
        old_logp: float tensor [M, N], recorded at sampling time (no gradient).
        advantages: float tensor [M, N] (no gradient).
        kl: float tensor [M, N], KL(pi_old || pi_theta) at each sample's state (depends on the policy).
        beta: the penalty coefficient used for this whole iteration.
        kl_target: the target KL d_targ.

    Returns:
        (losses, new_beta): losses a tensor [M], one loss to minimise per minibatch; new_beta the
        coefficient for the next iteration.
    """
    raise NotImplementedError

"""PPO clipped policy loss in NumPy."""
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    """Mean over all samples of -min(r A, clip(r, 1 - eps, 1 + eps) A), with r = pi_new / pi_old.

    new_logp, old_logp, advantages: float arrays [T]. Returns a scalar (float or 0-d array).
    """
    # Subtracting log-probs and exponentiating once stays finite where exp(logp) itself underflows.
    ratio = np.exp(new_logp - old_logp)
    surr_unclipped = ratio * advantages
    surr_clipped = np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * advantages
    # The pessimistic bound: the update earns nothing for pushing the ratio out of the band.
    objective = np.minimum(surr_unclipped, surr_clipped)
    objective = np.maximum(objective, DUAL_C * advantages)

    # Optimisers minimise, and the objective is to be maximised.
    policy_loss = -objective.mean()
    return policy_loss

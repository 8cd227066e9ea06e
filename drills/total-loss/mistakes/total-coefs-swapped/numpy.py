"""PPO total loss in NumPy: clipped policy loss + value loss - entropy bonus."""
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    """policy_loss + vf_coef * value_loss - ent_coef * mean(entropy), all inputs float arrays [T].

    The policy and value terms are the ones of the policy-loss and value-loss drills, written inline.
    Returns a scalar (float or 0-d array).
    """
    # Policy term.
    # Subtracting log-probs and exponentiating once stays finite where exp(logp) itself underflows.
    ratio = np.exp(new_logp - old_logp)
    surr_unclipped = ratio * advantages
    surr_clipped = np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * advantages
    # The pessimistic bound: the update earns nothing for pushing the ratio out of the band.
    objective = np.minimum(surr_unclipped, surr_clipped)

    # Optimisers minimise, and the objective is to be maximised.
    policy_loss = -objective.mean()

    # Value term.
    loss_unclipped = (values - returns) ** 2
    # Limit how far the prediction may move away from the rollout-time prediction in one update.
    values_clipped = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    loss_clipped = (values_clipped - returns) ** 2
    # Keep the larger error: clipping may only make the loss more conservative, never smaller.
    per_sample = np.maximum(loss_unclipped, loss_clipped)

    # The 1/2 makes the gradient (V - R), the usual regression convention.
    value_loss = 0.5 * per_sample.mean()

    # Entropy is a bonus to maximise, so it enters the loss with a minus sign.
    entropy_bonus = entropy.mean()
    total = policy_loss + ent_coef * value_loss - vf_coef * entropy_bonus
    return total

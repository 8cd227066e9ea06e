"""PPO total loss in PyTorch: clipped policy loss + value loss - entropy bonus."""
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    """policy_loss + vf_coef * value_loss - ent_coef * mean(entropy), all inputs float tensors [B, T].

    The policy and value terms are the ones of the policy-loss and value-loss drills, written inline.
    Gradient may reach new_logp, values and entropy only. Returns a 0-d tensor.
    """
    old_logp = old_logp.detach()
    advantages = advantages.detach()
    old_values = old_values.detach()
    returns = returns.detach()

    # Policy term.
    # Subtracting log-probs and exponentiating once stays finite where exp(logp) itself underflows.
    ratio = torch.exp(new_logp - old_logp)
    surr_unclipped = ratio * advantages
    surr_clipped = torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * advantages
    # The pessimistic bound: the update earns nothing for pushing the ratio out of the band.
    objective = torch.min(surr_unclipped, surr_clipped)

    # Optimisers minimise, and the objective is to be maximised.
    policy_loss = -objective.mean()

    # Value term.
    loss_unclipped = (values - returns) ** 2
    # Limit how far the prediction may move away from the rollout-time prediction in one update.
    values_clipped = old_values + torch.clamp(values - old_values, -clip_eps, clip_eps)
    loss_clipped = (values_clipped - returns) ** 2
    # Keep the larger error: clipping may only make the loss more conservative, never smaller.
    per_sample = torch.max(loss_unclipped, loss_clipped)

    # The 1/2 makes the gradient (V - R), the usual regression convention.
    value_loss = 0.5 * per_sample.mean()

    entropy_bonus = entropy.mean()
    total = policy_loss + vf_coef * value_loss + ent_coef * entropy_bonus
    return total

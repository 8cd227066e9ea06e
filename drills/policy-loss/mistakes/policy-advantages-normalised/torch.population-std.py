"""PPO clipped policy loss in PyTorch."""
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    """Mean over all elements of -min(r A, clip(r, 1 - eps, 1 + eps) A), with r = pi_new / pi_old.

    new_logp, old_logp, advantages: float tensors [B, T]. Returns a 0-d tensor. Only new_logp may
    receive gradient: the rollout's log-probs and the advantages are fixed data for this update.
    """
    old_logp = old_logp.detach()
    advantages = advantages.detach()

    # Subtracting log-probs and exponentiating once stays finite where exp(logp) itself underflows.
    advantages = (advantages - advantages.mean()) / (advantages.std(unbiased=False) + NORM_EPS)
    ratio = torch.exp(new_logp - old_logp)
    surr_unclipped = ratio * advantages
    surr_clipped = torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * advantages
    # The pessimistic bound: the update earns nothing for pushing the ratio out of the band.
    objective = torch.min(surr_unclipped, surr_clipped)

    # Optimisers minimise, and the objective is to be maximised.
    policy_loss = -objective.mean()
    return policy_loss

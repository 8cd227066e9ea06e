"""PPO's adaptive KL penalty over one iteration, in PyTorch."""
import torch


def _adapt(beta, mean_kl, kl_target):
    """PPO's rule: double beta above 1.5 * target, halve it below target / 1.5, else keep it."""
    if mean_kl > 1.5 * kl_target:
        return beta * 2.0
    if mean_kl < kl_target / 1.5:
        return beta / 2.0
    return beta


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    """Per-minibatch losses -mean(ratio * A) + beta * mean(KL) with one beta for the iteration, and the
    beta for the next iteration from the iteration's mean KL.

    new_logp, old_logp, advantages, kl: float tensors [M, N] (M minibatches of N samples).
    Returns (losses [M], new_beta).
    """
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("inputs must be [M, N] tensors of one shape")
    if new_logp.numel() == 0:
        raise ValueError("empty iteration")
    if not kl_target > 0 or not beta >= 0:
        raise ValueError("kl_target must be positive and beta non-negative")
    losses = []
    for m in range(new_logp.shape[0]):
        ratio = torch.exp(new_logp[m] - old_logp[m].detach())
        surrogate = (ratio * advantages[m].detach()).mean()
        losses.append(-surrogate - beta * kl[m].mean())
    losses = torch.stack(losses)
    # One update per iteration, from the KL measured over all of its minibatches.
    new_beta = _adapt(beta, kl.detach().mean().item(), kl_target)
    return losses, new_beta

"""The PPO update loop: epochs x minibatches on a frozen batch, in NumPy."""
import numpy as np


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    """Run PPO's epochs over the given minibatches; return (theta, phi, history).

    problem: logp(theta, obs, actions), value(phi, obs) and loss_and_grad(theta, phi, obs, actions, old_logp,
    old_values, advantages, returns, clip_eps) -> (loss, grad_theta, grad_phi).
    theta [D, K], phi [D]: the parameters before the update.
    obs [B, D], actions [B] (int), advantages [B] (raw, to whiten), returns [B].
    minibatches [n_epochs, n_minibatches, minibatch_size] (int): the sample indices of each minibatch, in order.
    Returns (theta, phi, history): history is a list with one {"approx_kl": float, "clip_frac": float} per epoch
    run, each the mean over that epoch's minibatches.
    """
    raise NotImplementedError

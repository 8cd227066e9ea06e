"""The PPO update loop every `ppo_update` answer is compared with, on the problem of
`checker.handouts.update_problem` (a categorical policy whose logits are linear in the observation and a
linear critic, trained with CleanRL's loss by plain SGD).

`reference_update`: old log-probs, old values and whitened advantages frozen once before the loop; per
minibatch the statistics measured before its update, then one SGD step on the gradient clipped to a global
norm; per-epoch means; after each epoch, stop when the epoch's mean approx KL exceeds target_kl (the
iteration of Schulman et al. 2017, Algorithm 1, with CleanRL's statistics and gradient clipping).

The problem objects live in their own package on purpose (`checker.handouts`): an answer receives one,
and its process holds that module, so it must hold the model's formulas and nothing an answer could return
instead of computing it.
"""
from __future__ import annotations

import numpy as np

from checker.handouts.update_problem import (  # noqa: F401 - re-exported for the spec and tests
    NUMPY_PROBLEM, TORCH_PROBLEM, VF_COEF, NumpyProblem, TorchProblem)

WHITEN_EPS = 1e-8      # (A - mean) / (std + eps), unbiased std (CleanRL, SB3, torch's .std())
CLIP_NORM_EPS = 1e-6   # torch.nn.utils.clip_grad_norm_: scale = max_norm / (norm + 1e-6), at most 1


def whiten(advantages: np.ndarray) -> np.ndarray:
    a = np.asarray(advantages, dtype=np.float64)
    return (a - a.mean()) / (a.std(ddof=1) + WHITEN_EPS)


def clip_global_norm(grads: list[np.ndarray], max_norm: float) -> list[np.ndarray]:
    """torch.nn.utils.clip_grad_norm_ over all parameters together."""
    norm = float(np.sqrt(sum(float((g ** 2).sum()) for g in grads)))
    scale = min(1.0, max_norm / (norm + CLIP_NORM_EPS))
    return [g * scale for g in grads]


def reference_update(theta, phi, obs, actions, advantages, returns, minibatches, lr=0.5, clip_eps=0.2,
                     max_grad_norm=0.5, target_kl=None):
    """The reference run: (theta, phi, history), history one {"approx_kl", "clip_frac"} per epoch run.

    approx_kl is k3, mean((ratio - 1) - log ratio); clip_frac is mean(|ratio - 1| > clip_eps); both
    measured on each minibatch before its update and averaged over the epoch's minibatches."""
    p = NUMPY_PROBLEM
    theta = np.array(theta, dtype=np.float64)
    phi = np.array(phi, dtype=np.float64)
    obs = np.asarray(obs, dtype=np.float64)
    actions = np.asarray(actions, dtype=np.int64)
    returns = np.asarray(returns, dtype=np.float64)
    old_logp = p.logp(theta, obs, actions)
    old_values = p.value(phi, obs)
    adv = whiten(advantages)
    history = []
    for epoch in np.asarray(minibatches, dtype=np.int64):
        kls, fracs = [], []
        for idx in epoch:
            log_ratio = p.logp(theta, obs[idx], actions[idx]) - old_logp[idx]
            ratio = np.exp(log_ratio)
            kls.append(float(((ratio - 1.0) - log_ratio).mean()))
            fracs.append(float((np.abs(ratio - 1.0) > clip_eps).mean()))
            _, g_theta, g_phi = p.loss_and_grad(theta, phi, obs[idx], actions[idx], old_logp[idx], old_values[idx],
                                                adv[idx], returns[idx], clip_eps)
            g_theta, g_phi = clip_global_norm([g_theta, g_phi], max_grad_norm)
            theta = theta - lr * g_theta
            phi = phi - lr * g_phi
        history.append({"approx_kl": float(np.mean(kls)), "clip_frac": float(np.mean(fracs))})
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta, phi, history


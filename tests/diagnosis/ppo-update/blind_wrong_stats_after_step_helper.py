# expect: loop-stats-after-step
# framework: numpy
# style: a helper measures the minibatch after the parameters were updated
import numpy as np


def _stats(problem, theta, obs, actions, old_logp, clip_eps):
    log_ratio = problem.logp(theta, obs, actions) - old_logp
    ratio = np.exp(log_ratio)
    return float(np.mean(ratio - 1.0 - log_ratio)), float(np.mean(np.abs(ratio - 1.0) > clip_eps))


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches, lr=0.5, clip_eps=0.2,
               max_grad_norm=0.5, target_kl=None):
    old_logp = problem.logp(theta, obs, actions)
    old_values = problem.value(phi, obs)
    adv = (advantages - advantages.mean()) / (advantages.std(ddof=1) + 1e-8)
    history = []
    for epoch in minibatches:
        per_mb = []
        for idx in epoch:
            _, g_t, g_p = problem.loss_and_grad(theta, phi, obs[idx], actions[idx], old_logp[idx], old_values[idx],
                                                adv[idx], returns[idx], clip_eps)
            total = np.sqrt(np.sum(g_t ** 2) + np.sum(g_p ** 2))
            factor = min(1.0, max_grad_norm / (total + 1e-6))
            theta = theta - lr * factor * g_t
            phi = phi - lr * factor * g_p
            per_mb.append(_stats(problem, theta, obs[idx], actions[idx], old_logp[idx], clip_eps))
        kl = float(np.mean([a for a, _ in per_mb]))
        history.append({"approx_kl": kl, "clip_frac": float(np.mean([b for _, b in per_mb]))})
        if target_kl is not None and kl > target_kl:
            break
    return theta, phi, history

"""The PPO update loop: epochs x minibatches on a frozen batch, in NumPy."""
import numpy as np


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    """Run PPO's epochs over the given minibatches; return (theta, phi, history).

    history holds one {"approx_kl", "clip_frac"} per epoch run, each the mean over the epoch's minibatches.
    """
    # pi_old: the log-probs and values of the parameters that collected the batch.
    old_logp = problem.logp(theta, obs, actions)
    old_values = problem.value(phi, obs)

    # Whitened over the whole batch, with the unbiased std.
    adv = (advantages - advantages.mean()) / (advantages.std(ddof=1) + 1e-8)

    history = []
    for epoch in minibatches:
        kls, fracs = [], []
        old_logp = problem.logp(theta, obs, actions)
        for idx in epoch:
            log_ratio = problem.logp(theta, obs[idx], actions[idx]) - old_logp[idx]
            ratio = np.exp(log_ratio)
            kls.append(np.mean((ratio - 1.0) - log_ratio))
            fracs.append(np.mean(np.abs(ratio - 1.0) > clip_eps))

            mb_adv = adv[idx]
            _, g_theta, g_phi = problem.loss_and_grad(theta, phi, obs[idx], actions[idx], old_logp[idx],
                                                      old_values[idx], mb_adv, returns[idx], clip_eps)

            # One global norm over every parameter, as clip_grad_norm_ does.
            norm = np.sqrt(np.sum(g_theta ** 2) + np.sum(g_phi ** 2))
            scale = min(1.0, max_grad_norm / (norm + 1e-6))
            theta = theta - lr * scale * g_theta
            phi = phi - lr * scale * g_phi

        history.append({"approx_kl": float(np.mean(kls)), "clip_frac": float(np.mean(fracs))})

        # Checked after the epoch: stop before the next one.
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta, phi, history

# expect: loop-old-values-in-loop
# framework: numpy
# style: helpers, value clipping around the current critic
import numpy as np


def whiten(x, eps=1e-8):
    centred = x - x.mean()
    return centred / (np.sqrt(np.sum(centred ** 2) / (len(x) - 1)) + eps)


def clip_by_global_norm(grads, max_norm):
    norm = np.sqrt(sum(np.vdot(g, g) for g in grads))
    factor = min(1.0, max_norm / (norm + 1e-6))
    return [g * factor for g in grads], norm


def minibatch_stats(problem, theta, obs, actions, old_logp, eps):
    log_r = problem.logp(theta, obs, actions) - old_logp
    r = np.exp(log_r)
    return np.mean(r - 1.0 - log_r), np.mean(np.abs(r - 1.0) > eps)


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    theta = np.array(theta, dtype=np.float64)
    phi = np.array(phi, dtype=np.float64)
    logp_old = problem.logp(theta, obs, actions)
    v_old = problem.value(phi, obs)
    a_hat = whiten(np.asarray(advantages, dtype=np.float64))
    history = []
    for order in minibatches:
        per_mb = np.zeros((len(order), 2))
        for j, idx in enumerate(order):
            per_mb[j] = minibatch_stats(problem, theta, obs[idx], actions[idx], logp_old[idx], clip_eps)
            _, gt, gp = problem.loss_and_grad(theta, phi, obs[idx], actions[idx], logp_old[idx], problem.value(phi, obs[idx]),
                                              a_hat[idx], returns[idx], clip_eps)
            (gt, gp), _ = clip_by_global_norm([gt, gp], max_grad_norm)
            theta -= lr * gt
            phi -= lr * gp
        kl, frac = per_mb.mean(axis=0)
        history.append(dict(approx_kl=float(kl), clip_frac=float(frac)))
        if target_kl is not None and kl > target_kl:
            break
    return theta, phi, history

# expect: right
# framework: numpy
# style: NumPy loop with a manual global-norm clip
import numpy as np


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches, lr=0.5, clip_eps=0.2,
               max_grad_norm=0.5, target_kl=None):

    theta = np.array(theta, dtype=np.float64)
    phi = np.array(phi, dtype=np.float64)
    old_logp = problem.logp(theta, obs, actions)
    old_v = problem.value(phi, obs)
    adv = (advantages - advantages.mean()) / (np.std(advantages, ddof=1) + 1e-8)
    history = []
    for epoch in minibatches:
        stats = []
        for idx in epoch:
            idx = np.asarray(idx)
            lr_ = problem.logp(theta, obs[idx], actions[idx]) - old_logp[idx]
            r = np.exp(lr_)
            stats.append((np.mean(r - 1 - lr_), np.mean(np.abs(r - 1) > clip_eps)))
            _, gt, gp = problem.loss_and_grad(theta, phi, obs[idx], actions[idx], old_logp[idx], old_v[idx],
                                              adv[idx], returns[idx], clip_eps)
            norm = np.sqrt((gt ** 2).sum() + (gp ** 2).sum())
            c = min(1.0, max_grad_norm / (norm + 1e-6))
            theta = theta - lr * c * gt
            phi = phi - lr * c * gp
        kl = float(np.mean([s[0] for s in stats]))
        history.append({"approx_kl": kl, "clip_frac": float(np.mean([s[1] for s in stats]))})
        if target_kl is not None and kl > target_kl:
            break
    return theta, phi, history

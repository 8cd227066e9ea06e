# expect: strict-comparison
# framework: numpy
# style: early stop with >=
import numpy as np


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches, lr=0.5, clip_eps=0.2,
               max_grad_norm=0.5, target_kl=None):

    old_logp = problem.logp(theta, obs, actions)
    old_v = problem.value(phi, obs)
    adv = (advantages - advantages.mean()) / (advantages.std(ddof=1) + 1e-8)
    history = []
    for epoch in minibatches:
        kls, fracs = [], []
        for idx in epoch:
            lr_ = problem.logp(theta, obs[idx], actions[idx]) - old_logp[idx]
            r = np.exp(lr_)
            kls.append(np.mean(r - 1 - lr_))
            fracs.append(np.mean(np.abs(r - 1) > clip_eps))
            _, gt, gp = problem.loss_and_grad(theta, phi, obs[idx], actions[idx], old_logp[idx], old_v[idx],
                                              adv[idx], returns[idx], clip_eps)
            norm = np.sqrt(np.sum(gt ** 2) + np.sum(gp ** 2))
            s = min(1.0, max_grad_norm / (norm + 1e-6))
            theta = theta - lr * s * gt
            phi = phi - lr * s * gp
        history.append({"approx_kl": float(np.mean(kls)), "clip_frac": float(np.mean(fracs))})
        if target_kl is not None and history[-1]["approx_kl"] >= target_kl:
            break
    return theta, phi, history

# expect: right
# framework: numpy
# style: TorchRL-like loss/optimiser object in NumPy, clipped != ratio count
import numpy as np


class _Loop:
    """A TorchRL-like collector/loss/optimiser split, in NumPy."""

    def __init__(self, problem, lr, clip_eps, max_grad_norm):
        self.problem, self.lr, self.eps, self.max_norm = problem, lr, clip_eps, max_grad_norm

    def freeze(self, theta, phi, obs, actions, advantages):
        self.old_logp = self.problem.logp(theta, obs, actions)
        self.old_v = self.problem.value(phi, obs)
        a = np.asarray(advantages, dtype=float)
        self.adv = (a - a.mean()) / (a.std(ddof=1) + 1e-8)

    def step(self, theta, phi, obs, actions, returns, idx):
        lw = self.problem.logp(theta, obs[idx], actions[idx]) - self.old_logp[idx]
        kl = np.mean(np.exp(lw) - 1.0 - lw)
        clipped = np.clip(np.exp(lw), 1.0 - self.eps, 1.0 + self.eps)
        frac = np.mean(clipped != np.exp(lw))
        _, gt, gp = self.problem.loss_and_grad(theta, phi, obs[idx], actions[idx], self.old_logp[idx],
                                               self.old_v[idx], self.adv[idx], returns[idx], self.eps)
        flat = np.concatenate([gt.ravel(), gp.ravel()])
        coef = min(1.0, self.max_norm / (np.linalg.norm(flat) + 1e-6))
        return theta - self.lr * coef * gt, phi - self.lr * coef * gp, kl, frac


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    loop = _Loop(problem, lr, clip_eps, max_grad_norm)
    loop.freeze(theta, phi, obs, actions, advantages)
    history = []
    for epoch in minibatches:
        kls, fracs = np.empty(len(epoch)), np.empty(len(epoch))
        for j, idx in enumerate(epoch):
            theta, phi, kls[j], fracs[j] = loop.step(theta, phi, obs, actions, returns, idx)
        history.append({"approx_kl": kls.mean(), "clip_frac": fracs.mean()})
        if target_kl is not None and kls.mean() > target_kl:
            break
    return theta, phi, history

# expect: std-bessel-correction
# framework: torch
# style: std(unbiased=False) for the whitening
import torch


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches, lr=0.5, clip_eps=0.2,
               max_grad_norm=0.5, target_kl=None):
    with torch.no_grad():
        old_logp = problem.logp(theta, obs, actions)
        old_values = problem.value(phi, obs)
    adv = (advantages - advantages.mean()) / (advantages.std(unbiased=False) + 1e-8)
    opt = torch.optim.SGD([theta, phi], lr=lr)
    history = []
    for epoch in minibatches:
        kls, fracs = [], []
        for idx in epoch:
            with torch.no_grad():
                lr_ = problem.logp(theta, obs[idx], actions[idx]) - old_logp[idx]
                r = lr_.exp()
                kls.append(float(((r - 1) - lr_).mean()))
                fracs.append(float(((r - 1).abs() > clip_eps).double().mean()))
            loss = problem.loss(theta, phi, obs[idx], actions[idx], old_logp[idx], old_values[idx], adv[idx],
                                returns[idx], clip_eps)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_([theta, phi], max_grad_norm)
            opt.step()
        history.append({"approx_kl": sum(kls) / len(kls), "clip_frac": sum(fracs) / len(fracs)})
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta.detach(), phi.detach(), history

# expect: loop-stats-after-step
# framework: torch
# style: KL and clip fraction measured after optimizer.step()
import torch


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches, lr=0.5, clip_eps=0.2,
               max_grad_norm=0.5, target_kl=None):

    with torch.no_grad():
        old_logp = problem.logp(theta, obs, actions)
        old_values = problem.value(phi, obs)
    adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    opt = torch.optim.SGD([theta, phi], lr=lr)
    history = []
    for epoch in minibatches:
        kls, fracs = [], []
        for idx in epoch:
            loss = problem.loss(theta, phi, obs[idx], actions[idx], old_logp[idx], old_values[idx], adv[idx],
                                returns[idx], clip_eps)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_([theta, phi], max_grad_norm)
            opt.step()
            with torch.no_grad():
                log_ratio = problem.logp(theta, obs[idx], actions[idx]) - old_logp[idx]
                ratio = log_ratio.exp()
                kls.append(((ratio - 1) - log_ratio).mean().item())
                fracs.append(((ratio - 1).abs() > clip_eps).double().mean().item())
        history.append({"approx_kl": sum(kls) / len(kls), "clip_frac": sum(fracs) / len(fracs)})
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta.detach(), phi.detach(), history

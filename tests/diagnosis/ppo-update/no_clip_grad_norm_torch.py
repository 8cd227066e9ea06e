# expect: loop-no-grad-clip
# framework: torch
# style: CleanRL idiom without clip_grad_norm_
import numpy as np
import torch
from torch import nn


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    with torch.no_grad():
        b_logprobs = problem.logp(theta, obs, actions)
        b_values = problem.value(phi, obs)
    b_advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    optimizer = torch.optim.SGD([theta, phi], lr=lr)
    history = []
    for epoch in range(minibatches.shape[0]):
        clipfracs, kls = [], []
        for mb_inds in minibatches[epoch]:
            newlogprob = problem.logp(theta, obs[mb_inds], actions[mb_inds])
            logratio = newlogprob - b_logprobs[mb_inds]
            ratio = logratio.exp()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - logratio).mean()
                kls.append(approx_kl.item())
                clipfracs += [((ratio - 1.0).abs() > clip_eps).float().mean().item()]
            loss = problem.loss(theta, phi, obs[mb_inds], actions[mb_inds], b_logprobs[mb_inds],
                                b_values[mb_inds], b_advantages[mb_inds], returns[mb_inds], clip_eps)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        history.append({"approx_kl": float(np.mean(kls)), "clip_frac": float(np.mean(clipfracs))})
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta.detach(), phi.detach(), history

# expect: loop-order-ignored
# framework: torch
# style: CleanRL start/end slicing, the shuffle left out
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
        b_inds = torch.arange(len(obs))
        mb_size = minibatches.shape[2]
        for start in range(0, len(obs), mb_size):
            mb_inds = b_inds[start:start + mb_size]
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
            nn.utils.clip_grad_norm_([theta, phi], max_grad_norm)
            optimizer.step()
        history.append({"approx_kl": float(np.mean(kls)), "clip_frac": float(np.mean(clipfracs))})
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta.detach(), phi.detach(), history

# expect: right
# framework: torch
# style: CleanRL's update phase with an SGD optimizer
import torch


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches, lr=0.5, clip_eps=0.2,
               max_grad_norm=0.5, target_kl=None):

    with torch.no_grad():
        b_logprobs = problem.logp(theta, obs, actions)
        b_values = problem.value(phi, obs)
    b_adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    optimizer = torch.optim.SGD([theta, phi], lr=lr)
    history = []
    for epoch_batches in minibatches:
        approx_kls, clipfracs = [], []
        for mb_inds in epoch_batches:
            mb_inds = torch.as_tensor(mb_inds)
            with torch.no_grad():
                newlogprob = problem.logp(theta, obs[mb_inds], actions[mb_inds])
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = logratio.exp()
                approx_kls.append(((ratio - 1) - logratio).mean().item())
                clipfracs.append(((ratio - 1.0).abs() > clip_eps).float().mean().item())
            loss = problem.loss(theta, phi, obs[mb_inds], actions[mb_inds], b_logprobs[mb_inds], b_values[mb_inds],
                                b_adv[mb_inds], returns[mb_inds], clip_eps)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_([theta, phi], max_grad_norm)
            optimizer.step()
        history.append({"approx_kl": float(sum(approx_kls) / len(approx_kls)),
                        "clip_frac": float(sum(clipfracs) / len(clipfracs))})
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta.detach(), phi.detach(), history

# expect: loop-grad-clip-per-tensor
# framework: torch
# style: SB3 idiom, clip_grad_norm_ per parameter
import torch as th


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    params = [theta, phi]
    optimizer = th.optim.SGD(params, lr=lr)
    with th.no_grad():
        old_log_prob = problem.logp(theta, obs, actions)
        old_values = problem.value(phi, obs)
        norm_adv = (advantages - advantages.mean()) / (advantages.std(unbiased=True) + 1e-8)
    history = []
    continue_training = True
    for epoch in range(len(minibatches)):
        approx_kl_divs = []
        clip_fractions = []
        for batch_idx in minibatches[epoch]:
            log_prob = problem.logp(theta, obs[batch_idx], actions[batch_idx])
            with th.no_grad():
                log_ratio = log_prob - old_log_prob[batch_idx]
                ratio = th.exp(log_ratio)
                clip_fractions.append(th.mean((th.abs(ratio - 1) > clip_eps).float()).item())
                approx_kl_divs.append(th.mean((th.exp(log_ratio) - 1) - log_ratio).item())
            loss = problem.loss(theta, phi, obs[batch_idx], actions[batch_idx], old_log_prob[batch_idx],
                                old_values[batch_idx], norm_adv[batch_idx], returns[batch_idx], clip_eps)
            optimizer.zero_grad()
            loss.backward()
            for p in params:
                th.nn.utils.clip_grad_norm_(p, max_grad_norm)
            optimizer.step()
        mean_kl = sum(approx_kl_divs) / len(approx_kl_divs)
        history.append({"approx_kl": mean_kl, "clip_frac": sum(clip_fractions) / len(clip_fractions)})
        if target_kl is not None and mean_kl > target_kl:
            continue_training = False
        if not continue_training:
            break
    return theta.detach().clone(), phi.detach().clone(), history

# expect: old-logp-in-loop
# framework: torch
# style: OpenRLHF-like, experience log-probs refreshed every epoch
import torch


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    # OpenRLHF-style: experience made once, then the trainer's epochs over it.
    with torch.no_grad():
        experience = {
            "action_log_probs": problem.logp(theta, obs, actions),
            "values": problem.value(phi, obs),
            "advantages": (advantages - advantages.mean()) / (advantages.std() + 1e-8),
        }
    opt = torch.optim.SGD([theta, phi], lr=lr)
    history = []
    for epoch_idx, epoch in enumerate(minibatches.unbind(0)):
        kl_sum, frac_sum, n = 0.0, 0.0, 0
        with torch.no_grad():
            experience["action_log_probs"] = problem.logp(theta, obs, actions)
        for idx in epoch.unbind(0):
            old = experience["action_log_probs"][idx]
            loss = problem.loss(theta, phi, obs[idx], actions[idx], old, experience["values"][idx],
                                experience["advantages"][idx], returns[idx], clip_eps)
            with torch.no_grad():
                log_ratio = problem.logp(theta, obs[idx], actions[idx]) - old
                kl_sum += float((log_ratio.exp() - 1 - log_ratio).mean())
                frac_sum += float(((log_ratio.exp() - 1).abs() > clip_eps).double().mean())
                n += 1
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_([theta, phi], max_grad_norm, norm_type=2.0)
            opt.step()
        history.append({"approx_kl": kl_sum / n, "clip_frac": frac_sum / n})
        if target_kl is not None and kl_sum / n > target_kl:
            break
    return theta.detach(), phi.detach(), history

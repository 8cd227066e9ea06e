"""The PPO update loop: epochs x minibatches on a frozen batch, in PyTorch."""
import torch


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    """Run PPO's epochs over the given minibatches; return (theta, phi, history).

    history holds one {"approx_kl", "clip_frac"} per epoch run, each the mean over the epoch's minibatches.
    """
    # pi_old: the log-probs and values of the parameters that collected the batch.
    with torch.no_grad():
        old_logp = problem.logp(theta, obs, actions)
        old_values = problem.value(phi, obs)

    # Whitened over the whole batch, with the unbiased std (torch's default).
    adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)

    optimizer = torch.optim.SGD([theta, phi], lr=lr)
    history = []
    for epoch in minibatches:
        kls, fracs = [], []
        for idx in epoch:
            with torch.no_grad():
                log_ratio = problem.logp(theta, obs[idx], actions[idx]) - old_logp[idx]
                ratio = log_ratio.exp()
                kls.append(((ratio - 1.0) - log_ratio).mean().item())
                fracs.append(((ratio - 1.0).abs() > clip_eps).double().mean().item())

            mb_adv = adv[idx]
            loss = problem.loss(theta, phi, obs[idx], actions[idx], old_logp[idx],
                                old_values[idx], mb_adv, returns[idx], clip_eps)
            optimizer.zero_grad()
            loss.backward()

            torch.nn.utils.clip_grad_norm_(theta, max_grad_norm)
            torch.nn.utils.clip_grad_norm_(phi, max_grad_norm)
            optimizer.step()

        history.append({"approx_kl": sum(kls) / len(kls), "clip_frac": sum(fracs) / len(fracs)})

        # Checked after the epoch: stop before the next one.
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return theta.detach(), phi.detach(), history

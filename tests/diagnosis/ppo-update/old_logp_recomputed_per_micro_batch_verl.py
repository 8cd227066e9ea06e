# expect: old-logp-in-loop
# framework: torch
# style: verl idiom, old log-probs recomputed per micro-batch
from collections import defaultdict

import torch


def append_to_dict(data, new):
    for k, v in new.items():
        data[k].append(v)


def masked_mean(x):
    return x.sum() / x.numel()


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    actor = torch.nn.Parameter(theta.detach().clone())
    critic = torch.nn.Parameter(phi.detach().clone())
    optim = torch.optim.SGD([actor, critic], lr=lr, momentum=0.0)
    with torch.no_grad():
        old_log_probs = problem.logp(actor, obs, actions)
        values = problem.value(critic, obs)
        mean, var = advantages.mean(), advantages.var(unbiased=True)
        whitened = (advantages - mean) * torch.rsqrt(var) * (var.sqrt() / (var.sqrt() + 1e-8))
    history = []
    for micro_batches in minibatches:
        metrics = defaultdict(list)
        for mb in micro_batches:
            with torch.no_grad():
                old_mb = problem.logp(actor, obs[mb], actions[mb])
            log_prob = problem.logp(actor, obs[mb], actions[mb])
            negative_approx_kl = (log_prob - old_mb).detach()
            ratio = torch.exp(negative_approx_kl)
            append_to_dict(metrics, {"actor/ppo_kl": masked_mean(ratio - 1 - negative_approx_kl).item(),
                                     "actor/pg_clipfrac": masked_mean(((ratio - 1).abs() > clip_eps).double()).item()})
            policy_loss = problem.loss(actor, critic, obs[mb], actions[mb], old_mb, values[mb],
                                       whitened[mb], returns[mb], clip_eps)
            optim.zero_grad(set_to_none=True)
            policy_loss.backward()
            grad_norm = torch.nn.utils.clip_grad_norm_([actor, critic], max_norm=max_grad_norm)
            if torch.isfinite(grad_norm):
                optim.step()
        history.append({"approx_kl": sum(metrics["actor/ppo_kl"]) / len(metrics["actor/ppo_kl"]),
                        "clip_frac": sum(metrics["actor/pg_clipfrac"]) / len(metrics["actor/pg_clipfrac"])})
        if target_kl is not None and history[-1]["approx_kl"] > target_kl:
            break
    return actor.data, critic.data, history

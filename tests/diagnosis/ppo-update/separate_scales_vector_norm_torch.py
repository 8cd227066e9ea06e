# expect: loop-grad-clip-per-tensor
# framework: torch
# style: manual SGD, one scale per tensor with vector_norm
import torch


def _global_norm(tensors):
    return torch.sqrt(sum((t ** 2).sum() for t in tensors))


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    theta = theta.detach().clone().requires_grad_(True)
    phi = phi.detach().clone().requires_grad_(True)
    with torch.no_grad():
        logp_old = problem.logp(theta, obs, actions)
        v_old = problem.value(phi, obs)
        adv = advantages - advantages.mean()
        adv = adv / (adv.pow(2).sum().div(adv.numel() - 1).sqrt() + 1e-8)
    history = []
    for epoch_batches in minibatches:
        stats = {"approx_kl": [], "clip_frac": []}
        for idx in epoch_batches:
            loss = problem.loss(theta, phi, obs[idx], actions[idx], logp_old[idx], v_old[idx], adv[idx],
                                returns[idx], clip_eps)
            with torch.no_grad():
                lr_ = problem.logp(theta, obs[idx], actions[idx]) - logp_old[idx]
                stats["approx_kl"].append(torch.mean(torch.expm1(lr_) - lr_))
                stats["clip_frac"].append(torch.mean((torch.abs(torch.exp(lr_) - 1) > clip_eps).to(lr_.dtype)))
            g_theta, g_phi = torch.autograd.grad(loss, [theta, phi])
            s_theta = torch.clamp(max_grad_norm / (torch.linalg.vector_norm(g_theta) + 1e-6), max=1.0)
            s_phi = torch.clamp(max_grad_norm / (torch.linalg.vector_norm(g_phi) + 1e-6), max=1.0)
            with torch.no_grad():
                theta -= lr * s_theta * g_theta
                phi -= lr * s_phi * g_phi
        row = {k: torch.stack(v).mean().item() for k, v in stats.items()}
        history.append(row)
        if target_kl is not None and row["approx_kl"] > target_kl:
            break
    return theta.detach(), phi.detach(), history

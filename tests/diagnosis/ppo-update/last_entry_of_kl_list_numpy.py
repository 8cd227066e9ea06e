# expect: loop-stop-last-minibatch-kl
# framework: numpy
# style: loop, compares the list's last entry
import numpy as np


def _approx_kl(log_ratio):
    return float(np.mean(np.expm1(log_ratio) - log_ratio))


def _clip_frac(ratio, eps):
    return float(np.mean((ratio < 1.0 - eps) | (ratio > 1.0 + eps)))


def ppo_update(problem, theta, phi, obs, actions, advantages, returns, minibatches,
               lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None):
    b_logprobs = problem.logp(theta, obs, actions)
    b_values = problem.value(phi, obs)
    b_adv = (advantages - np.mean(advantages)) / (np.std(advantages, ddof=1) + 1e-8)
    history = []
    n_epochs = len(minibatches)
    for epoch in range(n_epochs):
        approx_kls = []
        clipfracs = []
        for mb_inds in minibatches[epoch]:
            newlogprob = problem.logp(theta, obs[mb_inds], actions[mb_inds])
            logratio = newlogprob - b_logprobs[mb_inds]
            ratio = np.exp(logratio)
            approx_kls.append(_approx_kl(logratio))
            clipfracs.append(_clip_frac(ratio, clip_eps))
            loss, g_theta, g_phi = problem.loss_and_grad(
                theta, phi, obs[mb_inds], actions[mb_inds], b_logprobs[mb_inds], b_values[mb_inds],
                b_adv[mb_inds], returns[mb_inds], clip_eps)
            total_norm = np.sqrt((g_theta * g_theta).sum() + (g_phi * g_phi).sum())
            clip_coef = max_grad_norm / (total_norm + 1e-6)
            if clip_coef < 1.0:
                g_theta = g_theta * clip_coef
                g_phi = g_phi * clip_coef
            theta = theta - lr * g_theta
            phi = phi - lr * g_phi
        approx_kl = sum(approx_kls) / len(approx_kls)
        history.append({"approx_kl": approx_kl, "clip_frac": sum(clipfracs) / len(clipfracs)})
        if target_kl is not None and approx_kls[-1] > target_kl:
            break
    return theta, phi, history

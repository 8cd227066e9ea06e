"""The problem objects a candidate's `ppo_update` receives (`NumpyProblem`, `TorchProblem`): a categorical
policy whose logits are linear in the observation (`logits = obs @ theta`, theta [D, K]) and a linear
critic (`V = obs @ phi`, phi [D]), with CleanRL's loss (clipped surrogate + 0.5 * clipped value loss, no
entropy bonus). NumPy: log-probs, values, and the loss with its gradient in closed form; PyTorch: the loss
tensor for autograd.

They hold no state and no results, only the model's formulas, so handing one to an answer tells it
nothing. The reference loop is kept out of this module (in `checker.reference.update_loop`): an answer's
process is forked from the sandbox's zygote, which loads this module (to rebuild the object it is handed)
and nothing of the reference core, so whatever lives here an answer can reach.
"""
from __future__ import annotations

import numpy as np

VF_COEF = 0.5          # the value loss's weight in the total (CleanRL's default)


def _log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


class NumpyProblem:
    """A linear-softmax policy and a linear critic in NumPy, with the PPO loss's gradient in closed form.

    logp(theta, obs, actions) -> [n]; value(phi, obs) -> [n];
    loss_and_grad(theta, phi, obs, actions, old_logp, old_values, advantages, returns, clip_eps)
        -> (loss, grad_theta [D, K], grad_phi [D]).
    """

    def __repr__(self) -> str:
        return "NumpyProblem(linear-softmax policy, linear critic)"

    def logp(self, theta, obs, actions):
        lp = _log_softmax(np.asarray(obs, dtype=np.float64) @ np.asarray(theta, dtype=np.float64))
        return lp[np.arange(lp.shape[0]), np.asarray(actions, dtype=np.int64)]

    def value(self, phi, obs):
        return np.asarray(obs, dtype=np.float64) @ np.asarray(phi, dtype=np.float64)

    def loss_and_grad(self, theta, phi, obs, actions, old_logp, old_values, advantages, returns, clip_eps):
        obs = np.asarray(obs, dtype=np.float64)
        actions = np.asarray(actions, dtype=np.int64)
        adv = np.asarray(advantages, dtype=np.float64)
        ret = np.asarray(returns, dtype=np.float64)
        old_values = np.asarray(old_values, dtype=np.float64)
        n = obs.shape[0]
        lp_all = _log_softmax(obs @ np.asarray(theta, dtype=np.float64))
        probs = np.exp(lp_all)
        logp = lp_all[np.arange(n), actions]
        ratio = np.exp(logp - np.asarray(old_logp, dtype=np.float64))
        clipped = np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps)
        pg = np.maximum(-adv * ratio, -adv * clipped)
        # d pg / d logp: through the unclipped branch wherever it is the one taken (inside the band the
        # two branches are equal and the gradient is the same)
        through = np.where(adv >= 0, ratio <= 1.0 + clip_eps, ratio >= 1.0 - clip_eps)
        d_logp = np.where(through, -adv * ratio, 0.0) / n
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), actions] = 1.0
        grad_theta = obs.T @ ((onehot - probs) * d_logp[:, None])

        v = obs @ np.asarray(phi, dtype=np.float64)
        v_clipped = old_values + np.clip(v - old_values, -clip_eps, clip_eps)
        e1, e2 = (v - ret) ** 2, (v_clipped - ret) ** 2
        v_loss = 0.5 * np.maximum(e1, e2).mean()
        inside = np.abs(v - old_values) <= clip_eps
        d_v = np.where(e1 >= e2, v - ret, np.where(inside, v_clipped - ret, 0.0)) / n   # d (0.5 max) / dv
        grad_phi = VF_COEF * (obs.T @ d_v)
        return float(pg.mean() + VF_COEF * v_loss), grad_theta, grad_phi


class TorchProblem:
    """The same policy, critic and loss in PyTorch; the loss is a 0-d tensor to call .backward() on.

    logp(theta, obs, actions) -> [n]; value(phi, obs) -> [n];
    loss(theta, phi, obs, actions, old_logp, old_values, advantages, returns, clip_eps) -> 0-d tensor.
    """

    def __repr__(self) -> str:
        return "TorchProblem(linear-softmax policy, linear critic)"

    def logp(self, theta, obs, actions):
        import torch

        lp = torch.log_softmax(obs @ theta, dim=-1)
        return lp.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)

    def value(self, phi, obs):
        return obs @ phi

    def loss(self, theta, phi, obs, actions, old_logp, old_values, advantages, returns, clip_eps):
        """The loss as a 0-d tensor whose backward gives the closed-form gradient w.r.t. theta and phi (the
        same numbers autograd gives through `loss_autograd`, in a tenth of the time); every other input is
        data and receives no gradient."""
        return _ClosedFormLoss.apply(theta, phi, obs, actions, old_logp, old_values, advantages, returns,
                                     float(clip_eps))

    def loss_autograd(self, theta, phi, obs, actions, old_logp, old_values, advantages, returns, clip_eps):
        """The same loss written in torch ops, differentiated by autograd (what the closed form is tested against)."""
        import torch

        old_logp, old_values = old_logp.detach(), old_values.detach()
        advantages, returns = advantages.detach(), returns.detach()
        ratio = torch.exp(self.logp(theta, obs, actions) - old_logp)
        pg = torch.max(-advantages * ratio, -advantages * torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps)).mean()
        v = self.value(phi, obs)
        v_clipped = old_values + torch.clamp(v - old_values, -clip_eps, clip_eps)
        v_loss = 0.5 * torch.max((v - returns) ** 2, (v_clipped - returns) ** 2).mean()
        return pg + VF_COEF * v_loss


def _closed_form_loss():
    import torch

    def plain(t):
        return t.detach().cpu().numpy() if isinstance(t, torch.Tensor) else np.asarray(t)

    class ClosedFormLoss(torch.autograd.Function):
        @staticmethod
        def forward(ctx, theta, phi, obs, actions, old_logp, old_values, advantages, returns, clip_eps):
            loss, g_theta, g_phi = NUMPY_PROBLEM.loss_and_grad(
                plain(theta), plain(phi), plain(obs), plain(actions), plain(old_logp), plain(old_values),
                plain(advantages), plain(returns), clip_eps)
            ctx.save_for_backward(torch.from_numpy(g_theta).to(theta.dtype), torch.from_numpy(g_phi).to(phi.dtype))
            return torch.tensor(loss, dtype=theta.dtype)

        @staticmethod
        def backward(ctx, grad_output):
            g_theta, g_phi = ctx.saved_tensors
            return (g_theta * grad_output, g_phi * grad_output) + (None,) * 7

    return ClosedFormLoss


class _LazyFunction:
    """The autograd Function, made on first use so that importing this module does not import torch."""
    _fn = None

    def apply(self, *args):
        if _LazyFunction._fn is None:
            _LazyFunction._fn = _closed_form_loss()
        return _LazyFunction._fn.apply(*args)


_ClosedFormLoss = _LazyFunction()


NUMPY_PROBLEM = NumpyProblem()
TORCH_PROBLEM = TorchProblem()

"""Cross-check of the reference core against an independent, widely used implementation: TorchRL.

Tolerances are float32-sized (1e-6) because TorchRL keeps gamma, lambda and the clip bounds as
float32 constants; a wrong sign, index or reduction differs by orders of magnitude more.

TorchRL's conventions, mapped onto ours: `generalized_advantage_estimate` takes [*B, T, F] tensors (time
at -2, a trailing feature dim), explicit `next_state_value`, and per-transition `done` / `terminated`
flags. Our `dones[t] = 1` (episode ended at step t: no bootstrap, recursion cut) is TorchRL's
done = terminated = 1 at t. `ClipPPOLoss` clips the log-weight to [log(1-eps), log(1+eps)] and reports
the clip fraction as the share of log-weights changed by that clamp: the "outside the band" definition.
The policy is injected as a controlled log-weight, as seed 003's framework check does.
"""
from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest
import torch
from hypothesis import assume, given, settings, strategies as st

from checker.reference import effective_sample_size, gae, policy_loss
from tests.strategies import gae_batch, policy_batch

# One worker runs these tests: TorchRL loads torch's compiler stack (about two seconds), which only it pays.
pytestmark = pytest.mark.xdist_group("torchrl")


@functools.cache
def _torchrl() -> SimpleNamespace:
    """TorchRL's functions and classes used here, imported by the first test that needs them (skipped
    where TorchRL is not installed)."""
    import sys

    compiler = sys.modules.get("torch._dynamo")
    if compiler is not None and not hasattr(compiler, "__file__"):
        # the checker's eager-only stand-in (checker/sandbox/eager.py), put in place by a check this
        # process ran earlier: TorchRL needs the real compiler, which the next import loads
        del sys.modules["torch._dynamo"], torch._dynamo
    pytest.importorskip("torchrl", reason="torchrl is a dev dependency: pip install -e '.[dev]'")
    from tensordict import TensorDict
    from tensordict.nn import TensorDictModule
    from torchrl.objectives import ClipPPOLoss
    from torchrl.objectives.value.functional import generalized_advantage_estimate, vec_generalized_advantage_estimate

    class ControlledClipPPOLoss(ClipPPOLoss):
        """ClipPPOLoss whose log-weight is injected, isolating the clipped objective."""

        def __init__(self, log_weight, clip_epsilon):
            actor = TensorDictModule(torch.nn.Identity(), in_keys=["observation"], out_keys=["parameter"])
            super().__init__(actor_network=actor, critic_network=None, clip_epsilon=clip_epsilon,
                             entropy_bonus=False, critic_coeff=None, reduction="mean", functional=False)
            self.controlled_log_weight = log_weight

        def _log_weight(self, tensordict, adv_shape):
            return self.controlled_log_weight, None, torch.zeros_like(self.controlled_log_weight), None

    return SimpleNamespace(TensorDict=TensorDict, ControlledClipPPOLoss=ControlledClipPPOLoss,
                           gae=generalized_advantage_estimate, vec_gae=vec_generalized_advantage_estimate)


def torchrl_gae(r, v, d, gamma, lam, vectorised=False):
    fn = _torchrl().vec_gae if vectorised else _torchrl().gae
    done = d.bool().unsqueeze(-1)
    adv, target = fn(gamma, lam, v[..., :-1].unsqueeze(-1), v[..., 1:].unsqueeze(-1), r.unsqueeze(-1),
                     done=done, terminated=done)
    return adv.squeeze(-1), target.squeeze(-1)


@given(gae_batch())
@settings(max_examples=60)
def test_gae_matches_torchrl_generalized_advantage_estimate(batch):
    r, v, d, gamma, lam = batch
    adv, ret = gae(r, v, d, gamma, lam)
    t_adv, t_target = torchrl_gae(r, v, d, gamma, lam)
    torch.testing.assert_close(adv, t_adv, rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(ret, t_target, rtol=1e-6, atol=1e-6)


@given(gae_batch())
@settings(max_examples=30)
def test_gae_matches_torchrl_vectorised_gae(batch):
    r, v, d, gamma, lam = batch
    assume(gamma * lam >= 1e-3)  # TorchRL 0.14.1's fast kernel raises IndexError when gamma * lambda == 0
    adv, _ = gae(r, v, d, gamma, lam)
    t_adv, _ = torchrl_gae(r, v, d, gamma, lam, vectorised=True)
    # the vectorised kernel drops geometric terms below 1e-7 (see shared notes §1.3)
    torch.testing.assert_close(adv, t_adv, rtol=1e-5, atol=1e-4)


def torchrl_objective(logp, old, adv, mask, clip_epsilon):
    lw = (logp - old)[mask].reshape(-1, 1)
    a = adv[mask].reshape(-1, 1)
    trl = _torchrl()
    out = trl.ControlledClipPPOLoss(lw, clip_epsilon)(trl.TensorDict({"advantage": a}, batch_size=[a.shape[0]]))
    return out["loss_objective"], out["clip_fraction"], out.get("ESS", None)


@given(policy_batch(log_ratio_scale=1.0), st.sampled_from([0.1, 0.2, 0.3]))
@settings(max_examples=60)
def test_policy_loss_and_band_clip_fraction_match_torchrl_clip_ppo_loss(batch, eps):
    logp, old, adv, mask = batch
    loss, stats = policy_loss(logp, old, adv, mask, clip_low=eps)
    t_loss, t_clip, _ = torchrl_objective(logp, old, adv, mask, eps)
    torch.testing.assert_close(loss, t_loss, rtol=1e-6, atol=1e-6)
    assert stats.clip_frac_band == pytest.approx(float(t_clip), abs=1e-12)


@given(policy_batch(log_ratio_scale=1.0), st.sampled_from([(0.2, 0.28), (0.1, 0.3)]))
@settings(max_examples=40)
def test_asymmetric_clip_matches_torchrl_tuple_epsilon(batch, eps):
    logp, old, adv, mask = batch
    loss, stats = policy_loss(logp, old, adv, mask, clip_low=eps[0], clip_high=eps[1])
    t_loss, t_clip, _ = torchrl_objective(logp, old, adv, mask, eps)
    torch.testing.assert_close(loss, t_loss, rtol=1e-6, atol=1e-6)
    assert stats.clip_frac_band == pytest.approx(float(t_clip), abs=1e-12)


def test_notes_probe_3_3_through_torchrl():
    rho = torch.tensor([[1.5, 1.5, 0.5, 0.5, 5.0, 1.0]], dtype=torch.float64)
    adv = torch.tensor([[1.0, -1, 1, -1, -1, 2]], dtype=torch.float64)
    mask = torch.ones_like(rho, dtype=torch.bool)
    t_loss, t_clip, _ = torchrl_objective(rho.log(), torch.zeros_like(rho), adv, mask, 0.2)
    assert float(t_loss) == pytest.approx(0.6) and float(t_clip) == pytest.approx(5 / 6)


@given(policy_batch(log_ratio_scale=2.0, masked=False))
@settings(max_examples=30)
def test_ess_matches_torchrl_logged_ess(batch):
    logp, old, adv, mask = batch
    lw = (logp - old).reshape(-1)
    a = adv.reshape(-1, 1)
    trl = _torchrl()
    out = trl.ControlledClipPPOLoss(lw.reshape(-1, 1), 0.2)(trl.TensorDict({"advantage": a},
                                                                             batch_size=[a.shape[0]]))
    # TorchRL logs ESS / N (a fraction of the batch)
    torch.testing.assert_close(effective_sample_size(lw) / lw.numel(), out["ESS"].double(), rtol=1e-6, atol=1e-6)

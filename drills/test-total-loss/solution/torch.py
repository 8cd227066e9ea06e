"""Reference tests for ppo_total_loss (PyTorch): the pieces, signs, coefficients and gradients."""
import math

import torch


from solution import ppo_total_loss


def t(*xs):
    return torch.tensor([list(xs)], dtype=torch.float64)


NEW, OLD = t(math.log(1.5), math.log(0.5)), t(0.0, 0.0)
ADV, V, V_OLD, R, ENT = t(1.0, -1.0), t(1.0, 1.0), t(0.0, 0.0), t(2.0, 0.5), t(0.5, 1.5)


def total(**kw):
    return float(ppo_total_loss(NEW, OLD, ADV, V, V_OLD, R, ENT, **kw))


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)


def test_worked_example_with_the_defaults():
    assert close(total(), 0.22625)


def test_policy_term_alone():
    assert close(total(vf_coef=0.0, ent_coef=0.0), -0.2)


def test_value_term_enters_with_a_plus():
    assert close(total(vf_coef=1.0, ent_coef=0.0) - total(vf_coef=0.0, ent_coef=0.0), 0.8725)


def test_entropy_bonus_lowers_the_loss():
    assert close(total(vf_coef=0.0, ent_coef=1.0) - total(vf_coef=0.0, ent_coef=0.0), -1.0)


def test_coefficients_are_not_swapped():
    assert close(total(vf_coef=0.5, ent_coef=0.0), -0.2 + 0.5 * 0.8725)


def test_entropy_gradient_sign():
    ent = ENT.clone().requires_grad_(True)
    ppo_total_loss(NEW, OLD, ADV, V, V_OLD, R, ent).backward()
    assert torch.allclose(ent.grad, torch.full_like(ent, -0.01 / 2))

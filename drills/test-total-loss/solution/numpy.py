"""Reference tests for ppo_total_loss (NumPy): the pieces, their signs and their coefficients."""
import numpy as np

from solution import ppo_total_loss

# ratio [1.5, 0.5], A [1, -1]: policy loss -0.2; V [1, 1], V_old [0, 0], R [2, 0.5]: value loss 0.8725;
# entropy [0.5, 1.5]: mean 1.0
NEW, OLD = np.log([1.5, 0.5]), np.zeros(2)
ADV = np.array([1.0, -1.0])
V, V_OLD, R = np.array([1.0, 1.0]), np.zeros(2), np.array([2.0, 0.5])
ENT = np.array([0.5, 1.5])


def total(**kw):
    return float(ppo_total_loss(NEW, OLD, ADV, V, V_OLD, R, ENT, **kw))


def test_worked_example_with_the_defaults():
    assert np.isclose(total(), -0.2 + 0.5 * 0.8725 - 0.01 * 1.0)


def test_policy_term_alone():
    assert np.isclose(total(vf_coef=0.0, ent_coef=0.0), -0.2)


def test_value_term_enters_with_a_plus():
    assert np.isclose(total(vf_coef=1.0, ent_coef=0.0) - total(vf_coef=0.0, ent_coef=0.0), 0.8725)


def test_entropy_bonus_lowers_the_loss():
    assert np.isclose(total(vf_coef=0.0, ent_coef=1.0) - total(vf_coef=0.0, ent_coef=0.0), -1.0)


def test_coefficients_are_not_swapped():
    assert np.isclose(total(vf_coef=0.5, ent_coef=0.0), -0.2 + 0.5 * 0.8725)

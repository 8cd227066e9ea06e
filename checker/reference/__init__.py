"""The reference PPO core: one canonical, float64, batch-agnostic implementation of every formula the
seeds define. Every verdict the checker gives is a comparison against these functions, so they are
written for clarity, not speed, and are proven by the property tests in tests/test_reference_*.py and
cross-checked against TorchRL.

Conventions shared by all functions: tensors have any leading dims and time (tokens) last; a `mask`
is 1/True on valid positions and 0/False on padding; masked statistics use valid positions only and
ignore whatever padding holds (NaN included).
"""
from checker.reference.aggregate import AGGREGATION_MODES, aggregate
from checker.reference.actor import compute_actor_loss
from checker.reference.gae import gae
from checker.reference.grpo import grpo_advantages
from checker.reference.importance import effective_sample_size, trajectory_log_weight
from checker.reference.kl import kl_k1, kl_k2, kl_k3, kl_per_token, kl_shaped_rewards
from checker.reference.masking import explained_variance, masked_mean, masked_sum, masked_whiten
from checker.reference.policy import PolicyStats, policy_loss, policy_objective
from checker.reference.total import entropy_from_logits, total_loss
from checker.reference.value import value_loss

__all__ = [
    "AGGREGATION_MODES", "aggregate", "compute_actor_loss", "gae", "grpo_advantages",
    "effective_sample_size", "trajectory_log_weight", "kl_k1", "kl_k2", "kl_k3", "kl_per_token",
    "kl_shaped_rewards", "explained_variance", "masked_mean", "masked_sum", "masked_whiten",
    "PolicyStats", "policy_loss", "policy_objective", "entropy_from_logits", "total_loss", "value_loss",
]

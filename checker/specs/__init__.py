"""What the checker knows about each core drill: its inputs (hypothesis strategies and hand-picked edge
cases), the reference result from the reference core, the shape of a right answer, the named checks
that turn a mismatch into a sentence, and how to shrink a counterexample."""
from __future__ import annotations

from checker.specs.base import Check, DrillSpec, Example, Expected


def spec_for(drill_id: str) -> DrillSpec:
    """The spec of a core drill id (pitfall drills use their base drill's spec)."""
    from checker.specs import actor_loss, gae, policy_loss, total_loss, value_loss
    from checker.specs import explained_variance, grpo_advantages, loss_aggregation, policy_loss_full

    specs = {m.SPEC.drill_id: m.SPEC for m in (gae, policy_loss, value_loss, total_loss, actor_loss)}
    specs.update({m.SPEC.drill_id: m.SPEC for m in (grpo_advantages, loss_aggregation, policy_loss_full,
                                                    explained_variance)})
    specs.update(_preference_and_is_specs())
    specs.update(_token_level_specs())
    specs.update(_objective_specs())
    try:
        return specs[drill_id]
    except KeyError:
        raise KeyError(f"no checker spec for drill {drill_id!r}; known: {', '.join(specs)}") from None


def _preference_and_is_specs() -> dict[str, DrillSpec]:
    """The drills beside PPO's formulas: reward-model and DPO losses, RLOO advantages, trajectory importance
    weights, the adaptive KL penalty, and the PPO update loop that uses the losses."""
    from checker.specs import bt_loss, dpo_loss, kl_penalty, ppo_update, rloo, trajectory_is

    return {m.SPEC.drill_id: m.SPEC for m in (bt_loss, dpo_loss, rloo, trajectory_is, kl_penalty, ppo_update)}


def _token_level_specs() -> dict[str, DrillSpec]:
    """The token-level LLM drills: log-probs from logits, KL estimators, KL-shaped reward, token GAE,
    masked whitening."""
    from checker.specs import kl_reward, masked_whiten, token_gae, token_kl, token_logprobs

    return {m.SPEC.drill_id: m.SPEC for m in (token_logprobs, token_kl, kl_reward, token_gae, masked_whiten)}


def _objective_specs() -> dict[str, DrillSpec]:
    """The objectives beside PPO: rollout/trainer mismatch correction, GSPO, DAPO, critic-free advantages,
    CISPO, the KL loss's gradient, micro-batch loss scaling."""
    from checker.specs import (cispo_loss, critic_free_advantages, dapo_loss, grad_accumulation, gspo_loss, kl_loss,
                               rollout_correction)

    return {m.SPEC.drill_id: m.SPEC for m in (rollout_correction, gspo_loss, dapo_loss, critic_free_advantages, cispo_loss, kl_loss,
                                              grad_accumulation)}


__all__ = ["Check", "DrillSpec", "Example", "Expected", "spec_for"]

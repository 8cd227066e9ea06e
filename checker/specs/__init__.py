"""What the checker knows about each core drill: its inputs (hypothesis strategies and hand-picked edge
cases), the reference result from the reference core, the shape of a right answer, the named checks
that turn a mismatch into a sentence, and how to shrink a counterexample."""
from __future__ import annotations

from checker.specs import (
    actor_loss,
    bt_loss,
    cispo_loss,
    critic_free_advantages,
    dapo_loss,
    dpo_loss,
    explained_variance,
    gae,
    grad_accumulation,
    grpo_advantages,
    gspo_loss,
    kl_loss,
    kl_penalty,
    kl_reward,
    loss_aggregation,
    masked_whiten,
    policy_loss,
    policy_loss_full,
    ppo_update,
    rloo,
    rollout_correction,
    token_gae,
    token_kl,
    token_logprobs,
    total_loss,
    trajectory_is,
    value_loss,
)
from checker.specs.base import Check, DrillSpec, Example, Expected

#: Every core drill's spec by drill id, grouped as the track lists them.
SPECS: dict[str, DrillSpec] = {m.SPEC.drill_id: m.SPEC for m in (
    gae, policy_loss, value_loss, total_loss, actor_loss,
    # the token-level LLM drills: log-probs from logits, KL estimators, KL-shaped reward, token GAE, whitening
    token_logprobs, token_kl, kl_reward, token_gae, masked_whiten,
    grpo_advantages, loss_aggregation, policy_loss_full, explained_variance,
    # beside PPO's formulas: reward-model and DPO losses, RLOO, trajectory importance weights, the adaptive
    # KL penalty, and the PPO update loop that uses the losses
    bt_loss, dpo_loss, rloo, trajectory_is, kl_penalty, ppo_update,
    # the objectives beside PPO: mismatch correction, GSPO, DAPO, critic-free advantages, CISPO, the KL
    # loss's gradient, micro-batch loss scaling
    rollout_correction, gspo_loss, dapo_loss, critic_free_advantages, cispo_loss, kl_loss, grad_accumulation)}


def spec_for(drill_id: str) -> DrillSpec:
    """The spec of a core drill id (pitfall drills use their base drill's spec)."""
    try:
        return SPECS[drill_id]
    except KeyError:
        raise KeyError(f"no checker spec for drill {drill_id!r}; known: {', '.join(SPECS)}") from None


__all__ = ["SPECS", "Check", "DrillSpec", "Example", "Expected", "spec_for"]

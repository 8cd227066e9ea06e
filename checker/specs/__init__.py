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
    try:
        return specs[drill_id]
    except KeyError:
        raise KeyError(f"no checker spec for drill {drill_id!r}; known: {', '.join(specs)}") from None


__all__ = ["Check", "DrillSpec", "Example", "Expected", "spec_for"]

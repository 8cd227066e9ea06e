"""The examples a check runs: the spec's hand-picked edge cases plus examples drawn from its hypothesis
strategy, reproducible per seed and cached, so a check on the hot path only pays for drawing once.

Drawing uses hypothesis itself (a seeded `@given` that collects what it draws), not `.example()`, so the
same seed always gives the same examples.
"""
from __future__ import annotations

from functools import lru_cache

from checker.specs import Example, spec_for

DEFAULT_RANDOM = 48


@lru_cache(maxsize=64)
def drawn_examples(drill_id: str, framework: str, seed: int, n: int = DEFAULT_RANDOM) -> tuple[Example, ...]:
    """`n` examples from the drill's strategy, the same for the same seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    spec = spec_for(drill_id)
    drawn: list[Example] = []

    @hseed(seed)
    @settings(max_examples=n, phases=[Phase.generate], database=None, derandomize=False, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(spec.strategy(framework))
    def collect(example):
        drawn.append(example)

    collect()
    return tuple(drawn[:n])


def examples_for(drill_id: str, framework: str, seed: int = 0) -> tuple[Example, ...]:
    """Edge cases first (they make the best counterexamples), then the drawn examples."""
    spec = spec_for(drill_id)
    return tuple(spec.edge_cases(framework)) + drawn_examples(drill_id, framework, seed)


@lru_cache(maxsize=64)
def expected_for(drill_id: str, framework: str, seed: int = 0) -> tuple:
    """The reference result of every example of `examples_for` (same order), computed once per seed."""
    spec = spec_for(drill_id)
    return tuple(spec.reference(ex, framework) for ex in examples_for(drill_id, framework, seed))

"""Naming the mistake: the catalogued buggy versions of a drill's model answer, run on the same inputs as
the candidate, so that behaviour — not text — decides which known mistake an answer makes.

Variants are the catalogue's files (one mistake each), two-mistake combinations derived by merging two
files' edits against the model solution (so an answer with two mistakes is still named), and, for the
total loss, the policy and value mistakes placed inside an otherwise correct total. All of it is our own
trusted code and runs in this process (`checker.trusted`), lazily: a variant is evaluated on an example
only when needed, and most variants are ruled out on the first example where the candidate differs
from the reference.
"""
from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import numpy as np

from checker.specs.base import OutputProblem, close
from checker.trusted import load_function, run_trusted


@dataclass
class Variant:
    """A known wrong behaviour: the mistake ids it plants and the function that shows it."""
    ids: tuple[str, ...]
    fn: Callable
    results: dict = field(default_factory=dict)  # example key -> CallResult


def merge_edits(base: str, a: str, b: str) -> str | None:
    """Apply the line edits of both `a` and `b` (each an edited copy of `base`) to `base`; None when the
    edits overlap (or an insertion touches the other's edit, where the order would be a guess), or when
    either makes no edit."""
    base_lines = base.splitlines(keepends=True)

    def edits(other: str):
        sm = difflib.SequenceMatcher(a=base_lines, b=other.splitlines(keepends=True), autojunk=False)
        return [(i1, i2, sm.b[j1:j2]) for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]

    ea, eb = edits(a), edits(b)
    if not ea or not eb:
        return None
    for (a1, a2, _), (b1, b2, _) in itertools.product(ea, eb):
        if max(a1, b1) < min(a2, b2):  # replaced ranges overlap
            return None
        if (a1 == a2 and b1 <= a1 <= b2) or (b1 == b2 and a1 <= b1 <= a2):  # insertion at the other's edge
            return None
    out = list(base_lines)
    for i1, i2, repl in sorted(ea + eb, key=lambda e: e[0], reverse=True):
        out[i1:i2] = repl
    return "".join(out)


@lru_cache(maxsize=32)
def variants(drill_id: str, framework: str) -> tuple[Variant, ...]:
    """Single mistakes first, then the derived combinations of two."""
    from drills import get_drill

    drill = get_drill(drill_id)
    function = drill.function
    solution = drill.solution(framework)
    singles: list[Variant] = []
    sources: dict[str, str] = {}
    for m in drill.mistakes:
        src = m.source(framework)
        if src is None:
            continue
        sources[m.id] = src
        singles.append(Variant((m.id,), load_function(src, function, str(m.path(framework)))))
    inherited = _inherited(drill_id, framework)
    pairs: list[Variant] = []
    for (ia, sa), (ib, sb) in itertools.combinations(sources.items(), 2):
        merged = merge_edits(solution, sa, sb)
        if merged is not None:
            pairs.append(Variant((ia, ib), load_function(merged, function, f"<{ia}+{ib}:{framework}>")))
    return tuple(singles + inherited + pairs)


def _inherited(drill_id: str, framework: str) -> list[Variant]:
    """For the total loss: each policy and value mistake inside an otherwise correct total."""
    if drill_id != "total_loss":
        return []
    from drills import get_drill

    policy, value = get_drill("policy_loss"), get_drill("value_loss")
    p_ok = load_function(policy.solution(framework), policy.function, str(policy.solution_path(framework)))
    v_ok = load_function(value.solution(framework), value.function, str(value.solution_path(framework)))

    def total(p_fn, v_fn):
        def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                           clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
            return (p_fn(new_logp, old_logp, advantages, clip_eps) + vf_coef * v_fn(values, old_values, returns,
                                                                                       clip_eps)
                    - ent_coef * entropy.mean())
        return ppo_total_loss

    out = []
    for m in policy.mistakes:
        src = m.source(framework)
        if src is not None:
            out.append(Variant((m.id,), total(load_function(src, policy.function, str(m.path(framework))), v_ok)))
    for m in value.mistakes:
        src = m.source(framework)
        if src is not None:
            out.append(Variant((m.id,), total(p_ok, load_function(src, value.function, str(m.path(framework))))))
    return out


def _outputs(spec, result, example, framework):
    """(outputs, grads) of a call result, or None when it raised or its structure is wrong."""
    if result is None or not result.ok:
        return None
    try:
        out = spec.extract(result.value, example, framework)
    except OutputProblem:
        return None
    return out, result.grads


def same_behaviour(a, b) -> bool:
    """Two (outputs, grads) pairs agree: every output close (NaN == NaN), every gradient close, where
    'no gradient' and an all-zero gradient count as the same."""
    if a is None or b is None:
        return a is None and b is None
    (oa, ga), (ob, gb) = a, b
    if oa.keys() != ob.keys():
        return False
    for k in oa:
        x, y = np.asarray(oa[k]), np.asarray(ob[k])
        if x.shape != y.shape or not close(x, y).all():
            return False
    for k in set(ga) | set(gb):
        x, y = ga.get(k), gb.get(k)
        x = None if x is None or not np.any(x) else x
        y = None if y is None or not np.any(y) else y
        if (x is None) != (y is None):
            return False
        if x is not None and (x.shape != y.shape or not close(x, y).all()):
            return False
    return True


def example_key(ex) -> tuple:
    """A content key for an example, so cached variant results survive across checks and seeds."""
    arrays = tuple((k, v.dtype.str, v.shape, v.tobytes()) for k, v in sorted(ex.arrays.items()))
    return (ex.label, tuple(sorted(ex.hyper.items())), arrays)


def diagnose(spec, framework: str, examples, calls, candidate_results, expected) -> list[tuple[str, ...]]:
    """The catalogue variants whose behaviour matches the candidate's on every example they both ran.

    `candidate_results` maps example index -> CallResult; `expected` maps example index -> the reference
    `Expected`. Single mistakes are tried first; combinations only when no single mistake explains the
    answer.
    """
    usable = [i for i, ex in enumerate(examples)
              if ex.invalid is None and i in candidate_results and expected[i].error is None]
    cand = {i: _outputs(spec, candidate_results[i], examples[i], framework) for i in usable}
    ref = {i: (expected[i].outputs, expected[i].grads if framework == "torch" else {}) for i in usable}
    differing = [i for i in usable if not same_behaviour(cand[i], ref[i])]
    if not differing:
        return []
    order = differing + [i for i in usable if i not in differing]
    keys = {i: example_key(examples[i]) for i in order}

    def matches(v: Variant) -> bool:
        for i in order:
            if keys[i] not in v.results:
                v.results[keys[i]] = run_trusted(v.fn, [calls[i]])[0]
            if not same_behaviour(cand[i], _outputs(spec, v.results[keys[i]], examples[i], framework)):
                return False
        return True

    all_variants = variants(spec.drill_id, framework)
    singles = [v.ids for v in all_variants if len(v.ids) == 1 and matches(v)]
    if singles:
        return singles
    return [v.ids for v in all_variants if len(v.ids) == 2 and matches(v)]

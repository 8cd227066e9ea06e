"""Naming the mistake, axis by axis: the catalogued wrong versions of a drill's model answer run on the
same inputs as the candidate, and behaviour — not text — decides which known mistake explains which part
of the answer.

An answer's behaviour is split into independent **axes** (`DrillSpec.axes`: each output, each metric,
each input's gradient, each reduction mode, each class of examples). On every axis where the answer
differs from the reference, the catalogue variants whose behaviour on that axis equals the answer's
explain it. So a second slip elsewhere never hides the first: two mistakes get two names, and a part no
variant explains is reported as "what differs".

Variants: every form of every catalogued mistake (`Mistake.forms`: the canonical file, other forms of
the same misconception, each `params` substitution), the shared misconceptions the drill inherits planted
in its model answer and recognised by the property they break (`checker.misconceptions`), two-mistake
combinations derived by merging two files' edits against the model solution, and, for the total loss, the
policy and value mistakes placed inside an otherwise correct total (and their combinations, by superposing
their deviations).

A variant is named only when (1) it explains at least one axis, matching the answer on every example of
it and differing from the reference on at least one of them, with >= 2 such examples over all the axes it
explains, and (2) on every axis of the same group
where the variant differs from the reference, the answer differs too (a mistake whose other effects the
answer does not show is not its mistake), and (3) no check that the answer passes fails for the variant (a
passing check contradicts it, whatever axis group it speaks about). All of it is our own trusted code and
runs in this process
(`checker.trusted`); results are cached per example, so the warm worker pays for a variant once.
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

MIN_EVIDENCE = 2  # distinct examples on which a variant must differ from the reference, over the axes it explains


@dataclass(eq=False)
class Variant:
    """A known wrong behaviour: the mistake ids it plants and the function that shows it (or, for a
    superposed combination, the variants whose deviations add up)."""
    ids: tuple[str, ...]
    fn: Callable | None
    label: str = ""
    parts: tuple["Variant", ...] = ()
    free: Callable | None = None  # a recogniser: (run, i, field) -> where the answer may differ (see misconceptions)
    results: dict = field(default_factory=dict)  # example key -> CallResult
    views: dict = field(default_factory=dict)    # example key -> {field: array | None} | None
    is_ref: dict = field(default_factory=dict)   # (example key, field) -> the variant equals the reference there


@dataclass
class Explanation:
    """What the diagnosis found: named mistake ids with the axes each explains, and the axes nothing
    explains with the first difference on each."""
    names: list[tuple[tuple[str, ...], list[str]]]  # (ids, axis titles)
    unexplained: list[tuple[str, str]]              # (axis title, what differs)
    alternatives: bool = False                      # several variants explain the same axes equally
    alternative_of: dict = field(default_factory=dict)  # ids -> the ids it is indistinguishable from
    failing: dict = field(default_factory=dict)  # named ids -> {check id: example indices the variant fails}


def merge_edits(base: str, a: str, b: str) -> str | None:
    """Apply the line edits of both `a` and `b` (each an edited copy of `base`) to `base`; None when the
    edits overlap (or an insertion touches the other's edit, where the order would be a guess), or when
    either makes no edit."""
    base_lines = base.splitlines(keepends=True)

    def edits(other: str):
        sm = difflib.SequenceMatcher(a=base_lines, b=other.splitlines(keepends=True), autojunk=False)
        return [(i1, i2, sm.b[j1:j2]) for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]  # type: ignore[attr-defined]

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
def singles(drill_id: str, framework: str) -> tuple[Variant, ...]:
    """Every form of every single mistake of the drill (for the total loss also the inherited ones)."""
    from drills import get_drill

    from checker import misconceptions

    drill = get_drill(drill_id)
    out: list[Variant] = []
    for m in drill.mistakes:
        for label, src in m.forms(framework):
            out.append(Variant((m.id,), load_function(src, drill.function, label), label))
    for p in misconceptions.planted(drill_id, framework):
        out.append(Variant((p.mistake_id,), load_function(p.source, drill.function, f"<{p.label}>"), p.label))
    for r in misconceptions.recognisers(drill_id, framework):
        out.append(Variant((r.mistake_id,), None, r.label, free=r.free))
    return tuple(out + _inherited(drill_id, framework))


@lru_cache(maxsize=32)
def pairs(drill_id: str, framework: str) -> tuple[Variant, ...]:
    """Two mistakes at once: merged edits of two mistakes' files (every form that is an edit of the model
    answer), and for the total loss the superposition of two independent terms' mistakes."""
    from drills import get_drill

    from checker import misconceptions

    drill = get_drill(drill_id)
    solution = drill.solution(framework)
    sources = [(m.id, label, src) for m in drill.mistakes for label, src in m.forms(framework)]
    sources += [(p.mistake_id, p.label, p.source) for p in misconceptions.planted(drill_id, framework)]
    out: list[Variant] = []
    seen: set[str] = set()
    for (ia, la, sa), (ib, lb, sb) in itertools.combinations(sources, 2):
        if ia == ib:
            continue
        merged = merge_edits(solution, sa, sb)
        if merged is None or merged in seen:
            continue
        seen.add(merged)
        out.append(Variant((ia, ib), load_function(merged, drill.function, f"<{la}+{lb}>"), f"{la}+{lb}"))
    if drill_id == "total_loss":
        singles_ = singles(drill_id, framework)
        for a, b in itertools.combinations(singles_, 2):
            if a.ids != b.ids and _term(a) != _term(b):
                out.append(Variant(a.ids + b.ids, None, f"{a.label}+{b.label}", parts=(a, b)))
    return tuple(out)


def _term(v: Variant) -> str:
    """Which term of the total a mistake touches: 'policy', 'value' or 'total' (the combination itself)."""
    return v.label.split("/", 1)[0] if "/" in v.label else "total"


def _inherited(drill_id: str, framework: str) -> list[Variant]:
    """For the total loss: each form of each policy and value mistake inside an otherwise correct total."""
    if drill_id != "total_loss":
        return []
    from drills import get_drill

    policy, value = get_drill("policy_loss"), get_drill("value_loss")
    if framework not in policy.frameworks or framework not in value.frameworks:
        return []
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
        for label, src in m.forms(framework):
            out.append(Variant((m.id,), total(load_function(src, policy.function, label), v_ok), f"policy/{label}"))
    for m in value.mistakes:
        for label, src in m.forms(framework):
            out.append(Variant((m.id,), total(p_ok, load_function(src, value.function, label)), f"value/{label}"))
    return out


def variants(drill_id: str, framework: str) -> tuple[Variant, ...]:
    """Single mistakes first, then the derived combinations of two."""
    return singles(drill_id, framework) + pairs(drill_id, framework)


# ---- behaviour as fields ---------------------------------------------------------------------------

def behaviour(spec, result, example, framework, kinks: dict | None = None) -> dict | None:
    """The fields an axis can look at: outputs, derived fields, "grad:<x>" (None = no gradient) and
    "nograd:<x>" (None when no or an all-zero gradient), gradients zeroed on the spec's kinks. None when
    the call raised or its output has the wrong structure."""
    if result is None or not result.ok:
        return None
    try:
        out = dict(spec.extract(result.value, example, framework))
    except OutputProblem:
        return None
    out.update(spec.derive(example, out))
    if framework == "torch":
        kinks = spec.kinks(example) if kinks is None else kinks
        for name, g in (result.grads or {}).items():
            if g is not None and name in kinks and np.shape(kinks[name]) == np.shape(g):
                g = np.where(kinks[name], 0.0, g)
            out[f"grad:{name}"] = g
            out[f"nograd:{name}"] = _support(g)
    return out


def _support(g) -> np.ndarray | None:
    """Where a gradient reaches an input that must receive none: None when nowhere, else the elements it
    reaches (as 0/1). A missing detach is one misconception whatever flows through it, so a second slip that
    scales or flips that gradient leaves the name."""
    if g is None:
        return None
    nz = np.asarray(g, dtype=np.float64) != 0
    return nz.astype(np.float64) if nz.any() else None


def _reference_behaviour(spec, expected, example, framework) -> dict:
    out = dict(expected.outputs)
    out.update(spec.derive(example, out))
    if framework == "torch":
        kinks = spec.kinks(example)
        for name, g in expected.grads.items():
            if g is not None and name in kinks:
                g = np.where(kinks[name], 0.0, g)
            out[f"grad:{name}"] = g
            out[f"nograd:{name}"] = None
    return out


def _same(x, y) -> bool:
    if x is None or y is None:
        return x is None and y is None
    if x is y:
        return True
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return x.shape == y.shape and bool(close(x, y).all())


def example_key(ex) -> tuple:
    """A content key for an example, so cached variant results survive across checks and seeds."""
    arrays = tuple((k, v.dtype.str, v.shape, v.tobytes()) for k, v in sorted(ex.arrays.items()))
    return (ex.label, tuple(sorted(ex.hyper.items())), arrays)


# ---- the diagnosis ---------------------------------------------------------------------------------

class _Run:
    """One diagnosis: the usable examples, the answer's and the reference's fields on them, and lazy
    evaluation of variants."""

    def __init__(self, spec, framework, examples, calls, candidate_results, expected):
        self.spec, self.framework, self.examples, self.calls = spec, framework, examples, calls
        self.expected = expected
        self.usable = [i for i, ex in enumerate(examples)
                       if ex.invalid is None and i in candidate_results and expected[i].error is None]
        self.keys = {i: example_key(examples[i]) for i in self.usable}
        static = {i: _static(spec, framework, self.keys[i], examples[i], expected[i]) for i in self.usable}
        self.kinks = {i: static[i][0] for i in self.usable}
        self.cand = {i: behaviour(spec, candidate_results[i], examples[i], framework, self.kinks[i])
                     for i in self.usable}
        self.ref = {i: static[i][1] for i in self.usable}
        self.axes = [a for a in spec.axes(framework)]
        self.axis_examples = {a.id: [i for i in self.usable if a.field in self.ref[i]
                                     and _applies(spec, framework, a, self.keys[i], examples[i])] for a in self.axes}
        self.axis_examples = {k: v for k, v in self.axis_examples.items() if v}
        self.axes = [a for a in self.axes if a.id in self.axis_examples]
        self._cand_is_ref: dict[tuple[int, str], bool] = {}
        self.passed: set[str] = set()  # set by diagnose: the checks the answer passes
        self.plan = None
        self.ordered: dict[str, list[int]] = {}

    def value(self, view: dict | None, f: str):
        return "<raised>" if view is None else view.get(f, "<missing>")

    def equal(self, a: dict | None, b: dict | None, f: str) -> bool:
        x, y = self.value(a, f), self.value(b, f)
        if isinstance(x, str) or isinstance(y, str):
            return isinstance(x, str) and isinstance(y, str) and x == y
        return _same(x, y)

    def view(self, v: Variant, i: int) -> dict | None:
        key = self.keys[i]
        if v.free is not None:  # a recogniser predicts the reference wherever the property leaves no freedom
            return self.ref[i]
        if key not in v.views:
            if v.parts:
                v.views[key] = self._superpose(v.parts, i)
            else:
                if key not in v.results:
                    v.results[key] = run_trusted(v.fn, [self.calls[i]])[0]
                v.views[key] = behaviour(self.spec, v.results[key], self.examples[i], self.framework, self.kinks[i])
        return v.views[key]

    def _superpose(self, parts, i) -> dict | None:
        """ref + sum of each part's deviation from ref, field by field (an absent gradient counts as 0)."""
        ref = self.ref[i]
        views = [self.view(p, i) for p in parts]
        if any(x is None for x in views):
            return None
        out = {}
        for f, r in ref.items():
            if f.startswith("nograd:"):
                continue
            rr = 0.0 if r is None else np.asarray(r, dtype=np.float64)
            total = rr
            for x in views:
                g = x.get(f)
                total = total + ((0.0 if g is None else np.asarray(g, dtype=np.float64)) - rr)
            out[f] = None if (r is None and not np.any(total)) else total
        for f in ref:
            if f.startswith("nograd:"):
                out[f] = _support(out.get("grad:" + f[7:]))
        return out

    def cand_is_ref(self, i: int, f: str) -> bool:
        """The answer equals the reference on field `f` of example `i` (asked many times per diagnosis)."""
        key = (i, f)
        hit = self._cand_is_ref.get(key)
        if hit is None:
            hit = self._cand_is_ref[key] = self.equal(self.cand[i], self.ref[i], f)
        return hit

    def var_is_ref(self, v: Variant, i: int, f: str) -> bool:
        """Variant `v` equals the reference on field `f` of example `i` (kept on the variant, so a warm
        worker compares a variant with the reference once per example)."""
        key = (self.keys[i], f)
        hit = v.is_ref.get(key)
        if hit is None:
            hit = v.is_ref[key] = self.equal(self.view(v, i), self.ref[i], f)
        return hit

    def differs(self, axis) -> bool:
        return any(not self.cand_is_ref(i, axis.field) for i in self.axis_examples[axis.id])

    def judge(self, v: Variant, differing: set[str]) -> set[str] | None:
        """The axes variant `v` explains, or None when it cannot be the answer's mistake."""
        if v.free is not None:
            return self._judge_free(v, differing)
        explained: set[str] = set()
        evidence: set[int] = set()  # examples on which the variant differs from the reference on an explained axis
        for axis in self.axes:
            if axis.id not in differing:
                continue
            seen: set[int] = set()
            for i in self.ordered[axis.id]:  # where the answer differs first: most variants fail there at once
                vi = self.view(v, i)
                if not self.equal(vi, self.cand[i], axis.field):
                    seen = set()
                    break
                if not self.var_is_ref(v, i, axis.field):
                    seen.add(i)
            if seen:
                explained.add(axis.id)
                evidence |= seen
        if len(evidence) < MIN_EVIDENCE:
            return None
        groups = {a.group or a.id for a in self.axes if a.id in explained}
        for axis in self.axes:
            if (axis.group or axis.id) in groups and axis.id not in differing:
                if any(not self.var_is_ref(v, i, axis.field) for i in self.axis_examples[axis.id]):
                    return None  # the variant changes this part of the behaviour; the answer does not
        return explained


    def _judge_free(self, v: Variant, differing: set[str]) -> set[str] | None:
        """A recogniser explains an axis when, on every example of it, the answer equals the reference
        outside what the property leaves free, and differs from it inside on some example; evidence as for
        any variant. It predicts the reference elsewhere, so no group veto can apply."""
        explained: set[str] = set()
        evidence: set[int] = set()
        for axis in self.axes:
            if axis.id not in differing:
                continue
            seen: set[int] = set()
            ok = True
            for i in self.ordered[axis.id]:
                if self.cand_is_ref(i, axis.field):
                    continue
                if self.cand[i] is None or self.cand[i].get(axis.field) is None and axis.field.startswith("nograd:"):
                    ok = False  # a malformed output or no gradient at all: nothing the property could explain
                    break
                where = v.free(self, i, axis.field)
                if where is None:
                    ok = False
                    break
                if where is not True and not self._equal_outside(i, axis.field, where):
                    ok = False
                    break
                seen.add(i)
            if ok and seen:
                explained.add(axis.id)
                evidence |= seen
        return explained if len(evidence) >= MIN_EVIDENCE else None

    def _equal_outside(self, i: int, f: str, free) -> bool:
        c, r = self.value(self.cand[i], f), self.value(self.ref[i], f)
        if isinstance(c, str) or isinstance(r, str) or c is None or r is None:
            return False
        c, r = np.asarray(c, dtype=np.float64), np.asarray(r, dtype=np.float64)
        free = np.asarray(free, dtype=bool)
        if c.shape != r.shape or free.shape != c.shape:
            return False
        return bool((close(c, r) | free).all())

    def variant_failures(self, v: Variant) -> dict | None:
        """The checks variant `v` fails on the usable examples (check id -> example indices), by the same
        evaluation as the answer's; None for a recogniser or a superposition (no function to run)."""
        if v.fn is None:
            return None
        cached = v.views.get(("failures", self.spec.drill_id, tuple(self.keys[i] for i in self.usable)))
        if cached is not None:
            return cached
        from checker.engine import evaluate

        results = {}
        for i in self.usable:
            key = self.keys[i]
            if key not in v.results:
                v.results[key] = run_trusted(v.fn, [self.calls[i]])[0]
            results[i] = v.results[key]
        from dataclasses import replace as _replace

        # the same examples, in place, with the engine's plan of them (the checks that apply, the kinks)
        _, failures = evaluate(self.spec, self.framework, self.examples,
                               {i: _replace(r, index=i) for i, r in results.items()}, self.expected, plan=self.plan)
        out = {cid: {f.index for f in fs} for cid, fs in failures.items()}
        v.views[("failures", self.spec.drill_id, tuple(self.keys[i] for i in self.usable))] = out
        return out


_STATIC: dict = {}   # (drill, framework, example key) -> (kinks, the reference's fields)
_APPLIES: dict = {}  # (drill, framework, axis id, example key) -> the axis applies to the example


def _static(spec, framework, key, example, expected) -> tuple:
    """What the diagnosis needs from the reference on one example, computed once per example content."""
    k = (spec.drill_id, framework, key)
    hit = _STATIC.get(k)
    if hit is None:
        if len(_STATIC) > 8192:
            _STATIC.clear()
        kinks = spec.kinks(example) if framework == "torch" else {}
        hit = _STATIC[k] = (kinks, _reference_behaviour(spec, expected, example, framework))
    return hit


def _applies(spec, framework, axis, key, example) -> bool:
    k = (spec.drill_id, framework, axis.id, key)
    hit = _APPLIES.get(k)
    if hit is None:
        if len(_APPLIES) > 65536:
            _APPLIES.clear()
        hit = _APPLIES[k] = bool(axis.applies(example))
    return hit


def diagnose(spec, framework: str, examples, calls, candidate_results, expected,
             passed: set[str] | None = None, plan=None) -> Explanation:
    """Per axis where the answer differs from the reference, the catalogued mistakes that explain it.

    `candidate_results` maps example index -> CallResult; `expected` maps example index -> the reference
    `Expected`; `passed` the checks the answer passes (a variant that fails one of them is not named);
    `plan` the engine's plan of the examples (`engine._plan_for`), reused to evaluate the variants.
    Single mistakes first; combinations of two only for the axes no single mistake explains.
    """
    run = _Run(spec, framework, examples, calls, candidate_results, expected)
    run.passed = set(passed or ())
    run.plan = plan
    titles = {a.id: a.title for a in run.axes}
    differing = {a.id for a in run.axes if run.differs(a)}
    run.ordered = {a.id: sorted(run.axis_examples[a.id], key=lambda i: run.cand_is_ref(i, a.field))
                   for a in run.axes}
    if not differing:
        return Explanation([], [])
    judged: list[tuple[Variant, set[str]]] = []
    for v in singles(spec.drill_id, framework):
        got = run.judge(v, differing)
        if got:
            judged.append((v, got))
    covered = set().union(*(g for _, g in judged)) if judged else set()
    if differing - covered:
        for v in pairs(spec.drill_id, framework):
            got = run.judge(v, differing)
            if got and got - covered:
                judged.append((v, got))
    covered = set().union(*(g for _, g in judged)) if judged else set()
    if differing - covered:
        for v in _superposed(run, singles(spec.drill_id, framework), differing):
            got = run.judge(v, differing)
            if got and got - covered:
                judged.append((v, got))
    names, alternatives = _cover_uncontradicted(run, judged, differing)
    explained = set().union(*(set(axes) for _, axes, _ in names)) if names else set()
    out_names = [(ids, [] if set(axes) >= differing else [titles[a.id] for a in run.axes if a.id in axes])
                 for ids, axes, _ in names]
    alt_of = {ids: first for ids, _, first in names if first != ids}
    unexplained = [(titles[a.id], _first_difference(run, a)) for a in run.axes
                   if a.id in differing and a.id not in explained]
    out = Explanation(out_names, unexplained, alternatives, alt_of)
    for ids, _, _ in names:
        v = next((v for v, _ in judged if v.ids == ids and v.fn is not None and not _contradicted(run, v)), None)
        if v is not None:
            out.failing[ids] = run.variant_failures(v) or {}
    return out


def _contradicted(run: "_Run", v: Variant) -> bool:
    """Some check the answer passes fails for the variant: the answer lacks part of the mistake's behaviour."""
    if not run.passed or v.fn is None:
        return False
    fails = run.variant_failures(v) or {}
    return any(cid in run.passed for cid in fails)


def _cover_uncontradicted(run: "_Run", judged, differing):
    """The greedy cover, without the variants a passing check contradicts (tested only for those the cover
    picks, then the cover is made again)."""
    judged = list(judged)
    while True:
        names, alternatives = _cover(judged, differing)
        picked = {ids for ids, _, _ in names}
        bad = [vg for vg in judged if vg[0].ids in picked and _contradicted(run, vg[0])]
        if not bad:
            return names, alternatives
        judged = [vg for vg in judged if vg not in bad]


def _superposed(run: "_Run", candidates, differing: set[str]) -> list[Variant]:
    """Two mistakes whose edits cannot be merged (they touch the same line, or are written as whole forms)
    and whose effects are disjoint: the reference plus both deviations. Only mistakes whose every
    deviation falls where the answer deviates too are combined."""
    plausible = []
    for v in candidates:
        if v.free is not None:
            continue
        ok = True
        for axis in run.axes:
            for i in run.ordered[axis.id][::-1]:  # where the answer equals the reference first
                if run.cand_is_ref(i, axis.field):
                    if not run.var_is_ref(v, i, axis.field):
                        ok = False
                        break
                else:
                    break
            if not ok:
                break
        if ok:
            plausible.append(v)
    out = []
    for a, b in itertools.combinations(plausible, 2):
        if a.ids != b.ids and not a.parts and not b.parts:
            out.append(Variant(a.ids + b.ids, None, f"{a.label}(+){b.label}", parts=(a, b)))
    return out


def _cover(judged: list[tuple[Variant, set[str]]], differing: set[str]):
    """Greedy cover of the differing axes: the explanation covering most of what is left first (a single
    mistake before a pair on a tie); every explanation covering exactly the same axes is listed too (the
    behaviours are indistinguishable there)."""
    remaining = set(differing)
    names: list[tuple[tuple[str, ...], set[str], tuple[str, ...]]] = []
    named_ids: set[tuple[str, ...]] = set()
    alternatives = False
    while remaining:
        best = max(judged, key=lambda vg: (len(vg[1] & remaining), -len(vg[0].ids), len(vg[1])), default=None)
        if best is None or not best[1] & remaining:
            break
        cover = best[1] & remaining
        same = [(v, g) for v, g in judged if g & remaining == cover and len(v.ids) == len(best[0].ids)]
        ids_seen = []
        for v, _g in same:
            if v.ids not in named_ids and v.ids not in ids_seen:
                ids_seen.append(v.ids)
        if len({ids for ids in ids_seen}) > 1:
            alternatives = True
        for ids in ids_seen:
            names.append((ids, set(cover), ids_seen[0]))
            named_ids.add(ids)
        remaining -= cover
    # one entry per id tuple, each with the union of axes it explains and the first of its alternatives
    merged: dict[tuple[str, ...], list] = {}
    for ids, axes, first in names:
        entry = merged.setdefault(ids, [set(), first])
        entry[0].update(axes)
    return [(ids, axes, first) for ids, (axes, first) in merged.items()], alternatives


def _first_difference(run: _Run, axis) -> str:
    from checker.report import fmt

    for i in run.axis_examples[axis.id]:
        c, r = run.value(run.cand[i], axis.field), run.value(run.ref[i], axis.field)
        if run.equal(run.cand[i], run.ref[i], axis.field):
            continue
        if axis.field.startswith("nograd:") and run.cand[i] is not None:
            c = run.cand[i].get("grad:" + axis.field[7:], c)  # the gradient itself, not where it reaches
        label = run.examples[i].label
        label = "a random case" if label == "random" else label.removeprefix("edge: ")
        show = lambda x: "no gradient" if x is None else ("an error or a malformed output" if isinstance(x, str)  # noqa: E731
                                                          else fmt(x))
        return f"on {label}: expected {show(r)}, got {show(c)}"
    return ""

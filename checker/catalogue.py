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
combinations derived by merging two files' edits against the model solution, and, for a drill made of
other drills' answers (`DrillSpec.terms`: the total loss of the policy and value losses), each term's
mistakes placed inside an otherwise correct whole (and their combinations, by superposing their deviations).

A variant is named only when (1) it explains at least one axis, matching the answer on every example of
it and differing from the reference on at least one of them, with >= 2 such examples over all the axes it
explains, and (2) on every axis of the same group
where the variant differs from the reference, the answer differs too (a mistake whose other effects the
answer does not show is not its mistake), and (3) no check that the answer passes fails for the variant (a
passing check contradicts it, whatever axis group it speaks about). All of it is our own trusted code and
runs in this process (`checker.trusted`). A `Catalogue` holds one drill's variants in one framework and
what diagnosing with them has learnt (each variant's results per example, the reference's fields, which
axis applies where); the `Checker` keeps one per drill, so a warm worker pays for a variant once.
"""
from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from checker import misconceptions
from checker.evaluation import evaluate
from checker.report import fmt
from checker.specs import DrillSpec
from checker.specs.base import OutputProblem, close, example_key
from checker.trusted import TrustedFunction, load_function, run_trusted
from drills import get_drill

MIN_EVIDENCE = 2  # distinct examples on which a variant must differ from the reference, over the axes it explains


@dataclass(eq=False)
class Variant:
    """A known wrong behaviour: the mistake ids it plants and the function that shows it (or, for a
    superposed combination, the variants whose deviations add up)."""
    ids: tuple[str, ...]
    fn: TrustedFunction | None
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


#: How many examples' worth of results and reference fields a catalogue keeps per variant and in its own
#: caches before it starts afresh (keys hold the examples' bytes; a long watch session meets many).
MAX_EXAMPLES = 8192


class Catalogue:
    """The known wrong behaviours of one drill in one framework, built once (compiled forms, planted
    misconceptions, merged pairs), and what diagnosing with them has learnt: each variant's results and
    comparisons per example (kept on the variant), the reference's fields per example, which axis applies
    to which example. `diagnose` names an answer's mistakes with them."""

    def __init__(self, spec: DrillSpec, framework: str) -> None:
        self.spec, self.framework = spec, framework
        self.drill = get_drill(spec.drill_id)
        self._singles: tuple[Variant, ...] | None = None
        self._pairs: tuple[Variant, ...] | None = None
        self._static: dict = {}   # example key -> (kinks, the reference's fields)
        self._applies: dict = {}  # (axis id, example key) -> the axis applies to the example

    @property
    def singles(self) -> tuple[Variant, ...]:
        """Every form of every single mistake of the drill (and, for a drill made of terms, each term's)."""
        if self._singles is None:
            self._singles = self._make_singles()
        return self._singles

    @property
    def pairs(self) -> tuple[Variant, ...]:
        """Two mistakes at once: merged edits of two mistakes' files (every form that is an edit of the
        model answer), and for a drill made of terms the superposition of two terms' mistakes."""
        if self._pairs is None:
            self._pairs = self._make_pairs()
        return self._pairs

    def variants(self) -> tuple[Variant, ...]:
        """Single mistakes first, then the derived combinations of two."""
        return self.singles + self.pairs

    def _make_singles(self) -> tuple[Variant, ...]:
        drill, framework = self.drill, self.framework
        out: list[Variant] = []
        for m in drill.mistakes:
            for label, src in m.forms(framework):
                out.append(Variant((m.id,), load_function(src, drill.function, label), label))
        for p in misconceptions.planted(drill.id, framework):
            out.append(Variant((p.mistake_id,), load_function(p.source, drill.function, f"<{p.label}>"), p.label))
        for r in misconceptions.recognisers(drill.id, framework):
            out.append(Variant((r.mistake_id,), None, r.label, free=r.free))
        return tuple(out + self._inside_terms())

    def _make_pairs(self) -> tuple[Variant, ...]:
        drill, framework = self.drill, self.framework
        solution = drill.solution(framework)
        sources = [(m.id, label, src) for m in drill.mistakes for label, src in m.forms(framework)]
        sources += [(p.mistake_id, p.label, p.source) for p in misconceptions.planted(drill.id, framework)]
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
        if self.spec.terms:
            for a, b in itertools.combinations(self.singles, 2):
                if a.ids != b.ids and _term(a) != _term(b):
                    out.append(Variant(a.ids + b.ids, None, f"{a.label}+{b.label}", parts=(a, b)))
        return tuple(out)

    def _inside_terms(self) -> list[Variant]:
        """For a drill made of terms (`DrillSpec.terms`): each form of each term's mistakes inside an
        otherwise correct whole (`DrillSpec.assemble`), labelled "<term>/<form>"."""
        spec, framework = self.spec, self.framework
        drills = {term: get_drill(drill_id) for term, drill_id in spec.terms.items()}
        if any(framework not in d.frameworks for d in drills.values()):
            return []
        right = {term: load_function(d.solution(framework), d.function, str(d.solution_path(framework)))
                 for term, d in drills.items()}
        out = []
        for term, d in drills.items():
            for m in d.mistakes:
                for label, src in m.forms(framework):
                    parts = {**right, term: load_function(src, d.function, label)}
                    out.append(Variant((m.id,), TrustedFunction(spec.assemble(parts)), f"{term}/{label}"))
        return out

    def static(self, key, example, expected) -> tuple:
        """What the diagnosis needs from the reference on one example (its kinks, the reference's fields),
        computed once per example content."""
        hit = self._static.get(key)
        if hit is None:
            if len(self._static) > MAX_EXAMPLES:
                self._static.clear()
            kinks = self.spec.kinks(example) if self.framework == "torch" else {}
            hit = self._static[key] = (kinks, _reference_behaviour(self.spec, expected, example, self.framework))
        return hit

    def applies(self, axis, key, example) -> bool:
        """Axis `axis` speaks about `example` (asked once per axis and example content)."""
        k = (axis.id, key)
        hit = self._applies.get(k)
        if hit is None:
            if len(self._applies) > 8 * MAX_EXAMPLES:
                self._applies.clear()
            hit = self._applies[k] = bool(axis.applies(example))
        return hit

    def diagnose(self, examples, calls, candidate_results, expected, passed: set[str] | None = None,
                 plan=None) -> "Explanation":
        """Per axis where the answer differs from the reference, the catalogued mistakes that explain it.

        `candidate_results` maps example index -> CallResult; `expected` maps example index -> the reference
        `Expected`; `passed` the checks the answer passes (a variant that fails one of them is not named);
        `plan` each example's `checker.evaluation.Planned`, reused to evaluate the variants. Single mistakes
        first; combinations of two only for the axes no single mistake explains.
        """
        run = _Run(self, examples, calls, candidate_results, expected, set(passed or ()), plan)
        return _explain(run)


def _term(v: Variant) -> str:
    """Which term of a whole a mistake touches (its label's "<term>/" prefix), or "whole" for the drill's
    own mistakes."""
    return v.label.split("/", 1)[0] if "/" in v.label else "whole"


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


# ---- the diagnosis ---------------------------------------------------------------------------------

class _Run:
    """One diagnosis: the usable examples, the answer's and the reference's fields on them, and lazy
    evaluation of the catalogue's variants."""

    def __init__(self, catalogue: Catalogue, examples, calls, candidate_results, expected, passed: set[str],
                 plan) -> None:
        spec, framework = catalogue.spec, catalogue.framework
        self.catalogue = catalogue
        self.spec, self.framework, self.examples, self.calls = spec, framework, examples, calls
        self.expected = expected
        self.passed = passed  # the checks the answer passes
        self.plan = plan
        self.usable = [i for i, ex in enumerate(examples)
                       if ex.invalid is None and i in candidate_results and expected[i].error is None]
        self.keys = {i: example_key(examples[i]) for i in self.usable}
        static = {i: catalogue.static(self.keys[i], examples[i], expected[i]) for i in self.usable}
        self.kinks = {i: static[i][0] for i in self.usable}
        self.cand = {i: behaviour(spec, candidate_results[i], examples[i], framework, self.kinks[i])
                     for i in self.usable}
        self.ref = {i: static[i][1] for i in self.usable}
        axes = spec.axes(framework)
        self.axis_examples = {a.id: [i for i in self.usable if a.field in self.ref[i]
                                     and catalogue.applies(a, self.keys[i], examples[i])] for a in axes}
        self.axis_examples = {k: v for k, v in self.axis_examples.items() if v}
        self.axes = [a for a in axes if a.id in self.axis_examples]
        self._cand_is_ref: dict[tuple[int, str], bool] = {}
        # per axis, its examples where the answer differs first: most variants fail there at once
        self.ordered = {a.id: self._differing_first(a) for a in self.axes}

    def _differing_first(self, axis) -> list[int]:
        """The axis's examples, those where the answer differs from the reference first."""
        return sorted(self.axis_examples[axis.id], key=lambda i: self.cand_is_ref(i, axis.field))

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
            if len(v.views) > MAX_EXAMPLES:
                v.views.clear()
            if v.parts:
                v.views[key] = self._superpose(v.parts, i)
            else:
                v.views[key] = behaviour(self.spec, self._result(v, i), self.examples[i], self.framework,
                                         self.kinks[i])
        return v.views[key]

    def _result(self, v: Variant, i: int):
        """Variant `v`'s result on example `i` (run once per example content, kept on the variant)."""
        key = self.keys[i]
        r = v.results.get(key)
        if r is None:
            if len(v.results) > MAX_EXAMPLES:
                v.results.clear()
            r = v.results[key] = run_trusted(v.fn, [self.calls[i]])[0]
        return r

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

    def _tried_first(self, v: Variant, order: list[int]) -> list[int]:
        """`order` (where the answer differs first: most variants fail there at once) with the examples the
        variant has already run on first: where it already disagrees with the answer it is rejected without
        another run. Whether a variant explains an axis does not depend on the order the examples are
        looked at, only on how many runs that takes."""
        views = v.views
        tried = [i for i in order if self.keys[i] in views]
        if not tried or len(tried) == len(order):
            return order
        return tried + [i for i in order if self.keys[i] not in views]

    def judge(self, v: Variant, differing: set[str], needed: set[str] | None = None) -> set[str] | None:
        """The axes variant `v` explains, or None when it cannot be the answer's mistake. With `needed`
        (the axes nothing judged before explains), a variant that explains none of them is None at once:
        those axes are judged first, and the rest only for a variant that will be kept. Each axis is
        judged on its own, so the order changes how many runs a judgement takes, never its result."""
        if v.free is not None:
            return self._judge_free(v, differing)
        explained: set[str] = set()
        evidence: set[int] = set()  # examples on which the variant differs from the reference on an explained axis
        axes, first = self.axes, len(self.axes)
        if needed is not None:
            front = [a for a in axes if a.id in needed]
            axes, first = front + [a for a in axes if a.id not in needed], len(front)
        for n, axis in enumerate(axes):
            if n == first and not explained:
                return None  # explains nothing that is still unexplained
            if axis.id not in differing:
                continue
            seen: set[int] = set()
            for i in self._tried_first(v, self.ordered[axis.id]):
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
        key = ("failures", tuple(self.keys[i] for i in self.usable))
        cached = v.views.get(key)
        if cached is not None:
            return cached
        # the same examples, in place, with the engine's plan of them (the checks that apply, the kinks)
        results = {i: replace(self._result(v, i), index=i) for i in self.usable}
        _, failures = evaluate(self.spec, self.framework, self.examples, results, self.expected, plan=self.plan)
        out = {cid: {f.index for f in fs} for cid, fs in failures.items()}
        v.views[key] = out
        return out


def _explain(run: _Run) -> Explanation:
    """The greedy cover of the axes where the answer differs: single mistakes, then pairs and
    superpositions for what no single mistake explains; what nothing explains, with what differs."""
    catalogue = run.catalogue
    titles = {a.id: a.title for a in run.axes}
    differing = {a.id for a in run.axes if run.differs(a)}
    if not differing:
        return Explanation([], [])
    judged: list[tuple[Variant, set[str]]] = []
    for v in catalogue.singles:
        got = run.judge(v, differing)
        if got:
            judged.append((v, got))
    covered = set().union(*(g for _, g in judged)) if judged else set()
    if differing - covered:
        for v in catalogue.pairs:
            got = run.judge(v, differing, needed=differing - covered)
            if got and got - covered:
                judged.append((v, got))
    covered = set().union(*(g for _, g in judged)) if judged else set()
    if differing - covered:
        for v in _superposed(run, catalogue.singles, differing - covered):
            got = run.judge(v, differing, needed=differing - covered)
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


def _superposed(run: "_Run", candidates, needed: set[str]) -> list[Variant]:
    """Two mistakes whose edits cannot be merged (they touch the same line, or are written as whole forms)
    and whose effects are disjoint: the reference plus both deviations. Only pairs that could explain an
    axis of `needed` (what nothing judged so far explains) are made: those that equal the answer on every
    example of such an axis (as `judge` asks of a variant that explains it, looking first where the answer
    deviates, where most pairs fail at once); and of those, only pairs of mistakes whose every deviation
    falls where the answer deviates too, which runs each of the two on every example: the first test
    leaves few mistakes to run so."""
    axes = [a for a in run.axes if a.id in needed]
    singles = [v for v in candidates if v.free is None and not v.parts]
    pairs = [Variant(a.ids + b.ids, None, f"{a.label}(+){b.label}", parts=(a, b))
             for a, b in itertools.combinations(singles, 2) if a.ids != b.ids]
    pairs = [p for p in pairs if any(all(run.equal(run.view(p, i), run.cand[i], a.field) for i in run.ordered[a.id])
                                     for a in axes)]
    if not pairs:
        return []
    # (example, field) where the answer equals the reference: a plausible variant equals it there too
    agree = [(i, axis.field) for axis in run.axes for i in run.axis_examples[axis.id]
             if run.cand_is_ref(i, axis.field)]

    def plausible(v: Variant) -> bool:
        ran_first = sorted(agree, key=lambda pair: run.keys[pair[0]] not in v.views)  # those need no new run
        return all(run.var_is_ref(v, i, f) for i, f in ran_first)

    return [p for p in pairs if plausible(p.parts[0]) and plausible(p.parts[1])]


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

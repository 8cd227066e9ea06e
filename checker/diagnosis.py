"""From what the catalogue found to the named mistakes a report shows: each name with its explanation and
card (a shared misconception in the drill's own words), the parts of the behaviour it explains, the names
indistinguishable from an earlier one, the output problems no catalogued mistake explains (a wrong type,
shape or a non-finite value, with what the input says about its cause), and the input contract.
"""
from __future__ import annotations

from checker import misconceptions
from checker.catalogue import Catalogue
from checker.evaluation import OUTPUT_IDS
from checker.report import Diagnosis, Unexplained
from checker.wording import nonfinite_explanation
from drills import all_mistakes, get_drill, shared_misconceptions


def diagnoses(catalogue: Catalogue, plan, results: dict, failures: dict, passed: set[str]):
    """(named mistakes, parts nothing explains, for each named id the checks its variant fails) of an
    answer whose `results` (example index -> CallResult) failed `failures` (check id -> Failures) and
    passed the checks `passed`, on the examples of `plan` (a `checker.plan.DrillPlan`). A name lists the
    parts it explains when it does not explain everything that differs."""
    spec = plan.spec
    mistakes = all_mistakes()
    shared = shared_misconceptions()
    roles = spec.roles
    out: list[Diagnosis] = []
    seen: dict[str, Diagnosis] = {}

    def add(mid: str, explains: list[str] | None = None, alternative_to: str | None = None):
        if mid in seen:
            for a in explains or []:
                if a not in seen[mid].explains:
                    seen[mid].explains.append(a)
            return
        m = mistakes.get(mid)
        text, card = (m.explanation, m.card) if m else ("", None)
        if mid in shared:  # a shared misconception, in this drill's words
            text = misconceptions.explanation(text, roles)
            card = misconceptions.card(mid, card, roles)
        if mid == "output-nonfinite" and failures.get(mid):
            text, card = nonfinite_explanation(spec, min(failures[mid], key=lambda f: f.example.size()),
                                               misconceptions.padding_poisoned)
        if mid == "input-contract":
            card = next((c for c in get_drill(spec.drill_id).cards if "contract" in c), None)
        d = Diagnosis(mid, m.title if m else mid, text, card, list(explains or []), alternative_to)
        seen[mid] = d
        out.append(d)

    expected = dict(enumerate(plan.expected))
    found = catalogue.diagnose(plan.examples, plan.calls, results, expected, passed, plan.planned)
    for ids, axes in found.names:
        alt = found.alternative_of.get(ids)
        for k, mid in enumerate(ids):
            add(mid, axes, alt[k] if alt and len(alt) == len(ids) and alt[k] != mid else None)
    unexplained = [Unexplained(axis, differs) for axis, differs in found.unexplained]
    explained = bool(out)  # a catalogued mistake already explains any odd output it produces
    for mid in OUTPUT_IDS:
        if failures.get(mid) and not explained:
            add(mid)
    if out and not explained:
        unexplained = []  # the output problem is the diagnosis
    if failures.get("input-contract"):
        add("input-contract")
        accepted = "; ".join(f.detail for f in failures["input-contract"])
        out[-1] = Diagnosis(out[-1].id, out[-1].title, f"{out[-1].explanation} Here: {accepted}.", out[-1].card)
    failing = {ids[0]: by for ids, by in found.failing.items() if ids and ids[0] in seen}
    return out, unexplained, failing

"""When a drill counts as mastered: one pass shows the answer could be written once, on that day, perhaps
from a hint or a model answer still in mind. A drill counts as mastered only after a second pass on a
later day in another form:

- the other framework (NumPy after PyTorch),
- one of its twins: a fix-the-bug drill or the test-writing drill built on it (or the core drill after
  one of them),
- or the same drill written again: code that differs from every earlier passing answer of that drill
  and framework (re-running a saved passing answer shows nothing new, so it does not count).

Passes made practising ahead count too (they change no schedule, but they are passes). A drill and its
twins share one family, named by its core drill (`family_of`), and are mastered together.

Pure functions of the attempts, the preview log and the drills; days are UTC days, as in the scheduler.
"""
from __future__ import annotations

import ast
import functools
import hashlib
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Iterable, Sequence

from cards.schedule.preview import previews

UNTRIED, TRIED, PASSED, MASTERED = "untried", "tried", "passed once", "mastered"


@functools.lru_cache(maxsize=4096)
def code_key(code: str) -> str:
    """A short fingerprint of a program: the same for two files that differ only in comments, blank
    lines or layout, different when the program differs. Kept per program text (a pure function: the
    dashboard asks again for every stored attempt on each refresh, and parsing them was most of it)."""
    try:
        text = ast.dump(ast.parse(code))
    except (SyntaxError, ValueError):
        text = "\n".join(line.rstrip() for line in code.strip().splitlines())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def family_of(drill: Any) -> str:
    """The core drill a drill belongs with: itself, or the base of a fix-the-bug or test-writing drill."""
    return getattr(drill, "base", None) or drill.id


@dataclass(frozen=True)
class Pass:
    """One passing check: which drill, which framework, when, and a fingerprint of its code."""

    drill_id: str
    framework: str
    at: datetime
    key: str


@dataclass(frozen=True)
class Mastery:
    """A drill family's state: UNTRIED, TRIED (never passed), PASSED (passed, not yet again on a later
    day in another form) or MASTERED; `since` is the day of the first pass (PASSED) or of the pass
    that made it MASTERED."""

    family: str
    state: str
    since: date | None = None

    @property
    def mastered(self) -> bool:
        return self.state == MASTERED


def passes(store: Any, attempts: Sequence[Any] | None = None) -> list[Pass]:
    """Every passing attempt (of `attempts`, the store's by default) and every passing practise-ahead
    preview, oldest first."""
    found = [Pass(a.drill_id, a.framework, a.finished_at or a.started_at, code_key(a.code))
             for a in (store.attempts() if attempts is None else attempts) if a.passed]
    for entry in previews(store):
        if entry["kind"] == "drill" and entry.get("passed") and isinstance(entry.get("framework"), str):
            found.append(Pass(entry["ref"], entry["framework"], datetime.fromisoformat(entry["at"]),
                              str(entry.get("code_key", ""))))
    return sorted(found, key=lambda p: p.at)


def _is_another_form(later: Pass, earlier: Pass, keys_before: set[tuple[str, str, str]]) -> bool:
    if later.at.date() <= earlier.at.date():
        return False
    if (later.drill_id, later.framework) != (earlier.drill_id, earlier.framework):
        return True
    return (later.drill_id, later.framework, later.key) not in keys_before


def family_mastery(family: str, family_passes: Sequence[Pass], tried: bool) -> Mastery:
    """The state of one family from its passes (oldest first); `tried` says whether it has any attempt."""
    keys_before: set[tuple[str, str, str]] = set()
    for i, later in enumerate(family_passes):
        if any(_is_another_form(later, earlier, keys_before) for earlier in family_passes[:i]):
            return Mastery(family, MASTERED, later.at.date())
        keys_before.add((later.drill_id, later.framework, later.key))
    if family_passes:
        return Mastery(family, PASSED, family_passes[0].at.date())
    return Mastery(family, TRIED if tried else UNTRIED)


def mastery(store: Any, drills: Iterable[Any]) -> dict[str, Mastery]:
    """Each drill id's family state (a fix-the-bug or test-writing drill shares its core drill's)."""
    drills = list(drills)
    family = {d.id: family_of(d) for d in drills}
    by_family: dict[str, list[Pass]] = {}
    attempts = store.attempts()
    for p in passes(store, attempts):
        if p.drill_id in family:
            by_family.setdefault(family[p.drill_id], []).append(p)
    tried = {family[a.drill_id] for a in attempts if a.drill_id in family}
    states = {f: family_mastery(f, by_family.get(f, []), f in tried) for f in set(family.values())}
    return {d.id: states[family[d.id]] for d in drills}


def other_forms(drill: Any, drills: Iterable[Any]) -> list[str]:
    """What counts as another form of `drill`'s family, for a plan line: its other framework(s), its
    twins' ids, and writing it again from an empty file."""
    root = family_of(drill)
    members = [d for d in drills if family_of(d) == root]
    forms = [f"{d.id} ({'/'.join(d.frameworks)})" if d.id == root and len(d.frameworks) > 1 else d.id
             for d in members]
    return forms + ["or the same drill again from an empty file"]

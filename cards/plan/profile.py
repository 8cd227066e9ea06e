"""The pitfall profile: `pitfall_profile()` and `PitfallEntry` — the candidate's most frequent
named mistakes across all recorded drill attempts (app, CLI and mock interviews alike).

Read from the attempts table each time (it is small), so it can never drift from the history;
titles and related cards come from the drills' mistake catalogue, and a mistake id that has left
the catalogue keeps its history under its bare id.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping

from cards.progress.store import ProgressStore, utc_iso
from drills import all_mistakes


@dataclass(frozen=True)
class PitfallEntry:
    """One named mistake: how many attempts named it, when last, in which drills, and the card
    that teaches it."""

    mistake_id: str
    title: str
    count: int
    last_seen: datetime
    first_seen: datetime
    card: str | None
    drills: tuple[str, ...]

    def to_json(self) -> dict:
        return {"mistake": self.mistake_id, "title": self.title, "count": self.count,
                "last_seen": utc_iso(self.last_seen), "first_seen": utc_iso(self.first_seen),
                "card": self.card, "drills": list(self.drills)}


def pitfall_profile(store: ProgressStore, *, limit: int | None = None, since: datetime | None = None,
                    catalogue: Mapping[str, Any] | None = None) -> list[PitfallEntry]:
    """Named mistakes, most frequent first (ties: most recently seen first, then id).

    `count` is the number of attempts that named the mistake (a mistake named twice in one
    attempt counts once). `since` keeps only attempts started from then on. `catalogue` maps
    mistake id -> object with `title` and `card` (default: `drills.all_mistakes()`).
    """
    if catalogue is None:
        catalogue = all_mistakes()
    seen: dict[str, dict] = {}
    for attempt in store.attempts():
        when = attempt.finished_at or attempt.started_at
        if since is not None and attempt.started_at < since:
            continue
        for mid in dict.fromkeys(attempt.mistakes):
            e = seen.setdefault(mid, {"count": 0, "first": when, "last": when, "drills": []})
            e["count"] += 1
            e["first"] = min(e["first"], when)
            e["last"] = max(e["last"], when)
            if attempt.drill_id not in e["drills"]:
                e["drills"].append(attempt.drill_id)
    entries = []
    for mid, e in seen.items():
        known = catalogue.get(mid)
        entries.append(PitfallEntry(mid, getattr(known, "title", mid), e["count"], e["last"], e["first"],
                                    getattr(known, "card", None), tuple(e["drills"])))
    entries.sort(key=lambda x: (-x.count, -x.last_seen.timestamp(), x.mistake_id))
    return entries[:limit] if limit is not None else entries

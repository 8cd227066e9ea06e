"""Practising ahead without breaking a schedule: a preview review of a card or a preview attempt at a
drill (as Anki's custom-study preview) changes no FSRS state, no due date and no stability, and writes
no review or attempt row (those feed the schedule, the retention figures and the solve times). What
was previewed is kept as a short log in the store's settings (`record_preview`, `previews`), so the
plan and the statistics can say how much was practised ahead.

Reading or writing the log never touches `card_state`, `drill_state`, `review_log` or
`drill_attempt`.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from cards.progress.store import ProgressStore, utc_iso

PREVIEW_SETTING = "preview_log"
MAX_PREVIEWS = 500  # the log keeps the latest entries; older ones are dropped


def record_preview(store: ProgressStore, kind: str, ref: str, at: datetime, *, rating: int | None = None,
                   passed: bool | None = None, mistakes: list[str] | None = None,
                   framework: str | None = None, code_key: str | None = None) -> dict:
    """Log one preview (`kind` "card" with its `rating`, or "drill" with `passed`, the named `mistakes`,
    its `framework` and a fingerprint of its code, `cards.schedule.mastery.code_key`, so a passing
    practice counts towards mastery); returns the entry. Schedules are not touched."""
    if kind not in ("card", "drill"):
        raise ValueError(f"preview kind must be 'card' or 'drill', got {kind!r}")
    entry: dict[str, Any] = {"kind": kind, "ref": ref, "at": utc_iso(at)}
    if rating is not None:
        entry["rating"] = int(rating)
    if passed is not None:
        entry["passed"] = bool(passed)
    if mistakes:
        entry["mistakes"] = list(mistakes)
    if framework is not None:
        entry["framework"] = framework
    if code_key is not None:
        entry["code_key"] = code_key
    log = previews(store)
    log.append(entry)
    store.set_setting(PREVIEW_SETTING, log[-MAX_PREVIEWS:])
    return entry


def previews(store: ProgressStore, since: datetime | None = None) -> list[dict]:
    """The logged previews, oldest first (since `since` when given); malformed entries are skipped."""
    value = store.get_setting(PREVIEW_SETTING, [])
    if not isinstance(value, list):
        return []
    result = []
    for entry in value:
        if not isinstance(entry, dict) or entry.get("kind") not in ("card", "drill") or \
                not isinstance(entry.get("ref"), str) or not isinstance(entry.get("at"), str):
            continue
        if since is not None:
            try:
                if datetime.fromisoformat(entry["at"]) < since:
                    continue
            except ValueError:
                continue
        result.append(entry)
    return result


def preview_counts(store: ProgressStore, since: datetime | None = None) -> dict[str, int]:
    """How many card previews and drill previews were logged (since `since`)."""
    log = previews(store, since)
    return {"cards": sum(1 for e in log if e["kind"] == "card"),
            "drills": sum(1 for e in log if e["kind"] == "drill")}

"""Solve time for work done in the candidate's own editor (`ppo-drill start`, `check`, `watch`).

The app times a drill with its countdown; a file edited elsewhere has no clock on screen. This one
counts from the moment `ppo-drill start` wrote the file (or, without it, from the first check of the
drill) to each later check, so a CLI or watch attempt records an elapsed time and its pass is rated
against the drill's target like one made in the app. A gap of more than `IDLE_S` between two events
of a drill (its start, its checks) counts as `IDLE_S`: time away from the file is not solve time. A pass
ends the attempt: the next check starts a new one.

One clock per drill, kept in the progress store's settings (`SETTING`: drill id -> {"elapsed_s",
"last"}), so it survives between commands, moves with an export, and never touches the app's clock.
"""
from __future__ import annotations

from datetime import datetime

from cards.progress.store import ProgressStore, parse_iso, utc_iso

SETTING = "cli_clocks"
IDLE_S = 15 * 60


def _clocks(store: ProgressStore) -> dict:
    value = store.get_setting(SETTING, {})
    return value if isinstance(value, dict) else {}


def start(store: ProgressStore, drill_id: str, now: datetime) -> None:
    """A new attempt at `drill_id` starts now (`ppo-drill start` wrote its file)."""
    clocks = _clocks(store)
    clocks[drill_id] = {"elapsed_s": 0.0, "last": utc_iso(now)}
    store.set_setting(SETTING, clocks)


def tick(store: ProgressStore, drill_id: str, now: datetime, passed: bool) -> float | None:
    """A check of `drill_id` at `now`: the attempt's solve time so far in seconds, or None when the
    drill had no clock (no `start`, no earlier check since the last pass: the time is unknown, and
    the clock starts now). A pass stops the clock."""
    clocks = _clocks(store)
    clock = clocks.get(drill_id)
    elapsed = None
    if isinstance(clock, dict):
        try:
            gap = (now - parse_iso(clock["last"])).total_seconds()
            elapsed = float(clock["elapsed_s"]) + min(max(gap, 0.0), IDLE_S)
        except (KeyError, TypeError, ValueError):
            elapsed = None
    if passed:
        clocks.pop(drill_id, None)
    else:
        clocks[drill_id] = {"elapsed_s": round(elapsed or 0.0, 1), "last": utc_iso(now)}
    store.set_setting(SETTING, clocks)
    return None if elapsed is None else round(elapsed, 1)

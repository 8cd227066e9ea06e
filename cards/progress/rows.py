"""What a valid row of the user's progress is: the checks behind `import-progress` and behind every read of
the store, so that what import lets in is exactly what the store can read back.

A row that fails is named with the field and why (`BadRow`): on import it is skipped and listed; on a read
(a row written by an older version, a hand edit, a damaged file) it is left in the database untouched, read
as absent, and named once (`ProgressStore.problems`), so every command goes on.

Date-times must carry their time zone: a naive one could be any time, and the schedule compares them with
aware ones. FSRS states are checked as fsrs reads them (a card in review needs a stability above zero and a
difficulty from 1 to 10, or fsrs asserts). Settings are checked against `SETTINGS`, one rule per key the
app reads; other keys (of a newer version, say) are kept as they are and never read.
"""
from __future__ import annotations

import math
from datetime import date, datetime, timezone
from typing import Any, Callable

from cards.progress.schema import utc_iso


class BadRow(ValueError):
    """One row of an export or the store that cannot be used; the message says which field and why."""


def text(row: dict, key: str, optional: bool = False) -> str | None:
    value = row.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise BadRow(f"field {key!r} must be a non-empty string, got {_show(value)}")
    return value


def moment(value: Any, key: str) -> datetime:
    """An ISO date-time with its time zone, as an aware UTC datetime."""
    try:
        when = datetime.fromisoformat(value)
        if when.tzinfo is None:
            raise BadRow(f"field {key!r} must say its time zone (like 2026-12-01T10:00:00+00:00), got {_show(value)}")
        return when.astimezone(timezone.utc)
    except (TypeError, ValueError, OverflowError) as exc:
        if isinstance(exc, BadRow):
            raise
        raise BadRow(f"field {key!r} must be an ISO date-time, got {_show(value)}") from None


def time(row: dict, key: str, optional: bool = False) -> str | None:
    value = row.get(key)
    if value in (None, "") and optional:
        return None
    return utc_iso(moment(value, key))


def number(row: dict, key: str, low: float, high: float, optional: bool = False, whole: bool = False,
           above: bool = False):
    """A number from `low` to `high` (above `low` where `above`)."""
    value = row.get(key)
    if value is None and optional:
        return None
    ok = isinstance(value, int if whole else (int, float)) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not (low < value if above else low <= value) or value > high:
        kind = "a whole number" if whole else "a number"
        span = f"above {low:g} and at most {high:g}" if above else f"from {low:g} to {high:g}"
        raise BadRow(f"field {key!r} must be {kind} {span}, got {_show(value)}")
    return value


def choice(row: dict, key: str, allowed: tuple) -> Any:
    value = row.get(key)
    if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
        raise BadRow(f"field {key!r} must be one of {', '.join(map(repr, allowed))}, got {_show(value)}")
    return value


def fsrs_state(value: Any, key: str) -> dict:
    """An FSRS card state as `fsrs.Card.to_dict()` writes it (returned as it is), checked as fsrs reads it."""
    if not isinstance(value, dict):
        raise BadRow(f"field {key!r} must be an FSRS state object, got {_show(value)}")
    try:
        card_id = value.get("card_id")
        if card_id is not None and (type(card_id) is not int or not -2 ** 63 <= card_id < 2 ** 63):
            raise BadRow(f"field 'card_id' must be a whole number, got {_show(card_id)}")
        time(value, "due")
        time(value, "last_review", optional=True)
        state = choice(value, "state", (1, 2, 3))
        number(value, "step", 0, 1000, optional=True, whole=True)
        settled = state in (2, 3)  # review and relearning: fsrs needs both numbers
        number(value, "stability", 0, 1e9, optional=not settled, above=True)
        number(value, "difficulty", 1, 10, optional=not settled)
    except BadRow as exc:
        raise BadRow(f"field {key!r}: {exc}") from None
    return value


# -- settings -------------------------------------------------------------------------------------

def _whole(low: int, high: int) -> Callable[[Any], Any]:
    def check(value):
        if type(value) is not int or not low <= value <= high:
            raise BadRow(f"must be a whole number from {low} to {high}")
        return value
    return check


def _one_of(*allowed) -> Callable[[Any], Any]:
    def check(value):
        if value not in allowed or type(value) is not type(allowed[0]):
            raise BadRow(f"must be one of {', '.join(map(repr, allowed))}")
        return value
    return check


def _boolean(value):
    if type(value) is not bool:
        raise BadRow("must be true or false")
    return value


def _day_or_none(value):
    if value is None:
        return value
    try:
        date.fromisoformat(value)
    except (TypeError, ValueError):
        raise BadRow("must be a day, YYYY-MM-DD, or null") from None
    return value


def _name(value):
    if not isinstance(value, str) or not value or len(value) > 100:
        raise BadRow("must be a short name")
    return value


def _ids(value, key: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRow(f"{key!r} must be a list of ids")


def _plan_extra(value):
    if not isinstance(value, dict):
        raise BadRow("must be an object with 'day', 'at', 'cards' and 'drills'")
    _day_or_none(value.get("day"))
    if value.get("at") is not None:
        moment(value["at"], "at")
    _ids(value.get("cards", []), "cards")
    _ids(value.get("drills", []), "drills")
    return value


def _preview_log(value):
    if not isinstance(value, list):
        raise BadRow("must be a list of previews")
    return value


#: every setting the app reads -> the rule its value must follow
SETTINGS: dict[str, Callable[[Any], Any]] = {
    "new_per_day": _whole(0, 1000),
    "language": _one_of("en", "zh"),
    "theme": _name,
    "mock_coached": _boolean,
    "interview_date": _day_or_none,
    "plan_extra": _plan_extra,
    "preview_log": _preview_log,
}


def setting(key: str, value: Any) -> Any:
    """`value` if it is valid for setting `key` (any value for a key the app does not read); else BadRow."""
    rule = SETTINGS.get(key)
    if rule is None:
        return value
    try:
        return rule(value)
    except BadRow as exc:
        said = str(exc)
        raise BadRow(f"setting {key!r} {said}" + ("" if ", got " in said else f", got {_show(value)}")) from None


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."

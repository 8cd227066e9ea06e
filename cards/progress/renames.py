"""Card and drill ids that were renamed, and moving a store's rows from the old id to the new one.

A card's id is the key of its schedule state and of every review of it; a drill's id is the key of its
attempts and schedule state, and it is written inside a few JSON values too (the solve clocks, the
preview log, today's plan extras, each mock's record). Content changes sometimes rename a card or a drill
(a card id that said where the card came from rather than what it asks; the core drills' snake_case ids
respelled in kebab-case like every other drill's); without this the user's history would be orphaned
under the old id and the card or drill would come back as new. `renamed_cards.yaml` and
`renamed_drills.yaml` list old -> new; `follow(db)` and `follow_drills(db)` apply them inside the caller's
transaction, `followed_copy` for a store that cannot be written. The saved answers' folders, named by
drill id, are moved by `cards.progress.drafts`.
"""
from __future__ import annotations

import functools
import json
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import yaml

RENAMES_FILE = Path(__file__).with_name("renamed_cards.yaml")
DRILL_RENAMES_FILE = Path(__file__).with_name("renamed_drills.yaml")


def _read_renames(path: Path, what: str) -> dict[str, str]:
    """old id -> current id from `path`, with chains (a -> b -> c) followed to their end."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        raise ValueError(f"{path}: expected a mapping of old {what} id to new {what} id")
    out = {}
    for old in raw:
        new, seen = raw[old], {old}
        while new in raw:
            if new in seen:
                raise ValueError(f"{path}: the renames of {old!r} run in a circle")
            seen.add(new)
            new = raw[new]
        out[old] = new
    return out


@lru_cache(maxsize=1)
def renamed_cards() -> dict[str, str]:
    """old card id -> current id, with chains (a -> b -> c) followed to their end."""
    return _read_renames(RENAMES_FILE, "card")


@lru_cache(maxsize=1)
def renamed_drills() -> dict[str, str]:
    """old drill id -> current id, with chains (a -> b -> c) followed to their end."""
    return _read_renames(DRILL_RENAMES_FILE, "drill")


def _rows_pending(db: sqlite3.Connection, renames: dict[str, str], key: str, tables: tuple[str, ...]) -> bool:
    if not renames:
        return False
    marks = ",".join("?" * len(renames))
    olds = tuple(renames)
    return any(db.execute(f"SELECT 1 FROM {table} WHERE {key} IN ({marks}) LIMIT 1", olds).fetchone()
               for table in tables)


def _move_rows(db: sqlite3.Connection, renames: dict[str, str], key: str, states: str, log: str) -> int:
    """Move every old id's rows of `states` (one schedule state per id) and `log` to its new id. Where the new
    id already has a state (scheduled after the rename), that state is kept and the old one dropped; every
    row of the log moves either way."""
    moved = 0
    for old, new in renames.items():
        if db.execute(f"SELECT 1 FROM {states} WHERE {key} = ?", (new,)).fetchone():
            moved += db.execute(f"DELETE FROM {states} WHERE {key} = ?", (old,)).rowcount
        else:
            moved += db.execute(f"UPDATE {states} SET {key} = ? WHERE {key} = ?", (new, old)).rowcount
        moved += db.execute(f"UPDATE {log} SET {key} = ? WHERE {key} = ?", (new, old)).rowcount
    return moved


def pending(db: sqlite3.Connection, renames: dict[str, str]) -> bool:
    """Whether any card row still carries an old id (a cheap read, so most opens write nothing)."""
    return _rows_pending(db, renames, "card_id", ("card_state", "review_log"))


def follow(db: sqlite3.Connection, renames: dict[str, str]) -> int:
    """Move every old card id's rows to its new id; returns how many rows moved. Where the new id already
    has a schedule state (reviewed after the rename), that state is kept and the old one dropped; every
    review moves either way."""
    return _move_rows(db, renames, "card_id", "card_state", "review_log")


# -- drill ids inside JSON values -----------------------------------------------------------------

def _renamed(value: Any, renames: dict[str, str]) -> Any:
    return renames.get(value, value) if isinstance(value, str) else value


def mock_payload(payload: Any, renames: dict[str, str]) -> Any:
    """A mock record (`mock_session.payload`) with its drill ids renamed: each drill item's `ref` and each
    question's `drill` in the plan and on the scorecard, and the drill named by each item's last report.
    Anything not shaped like a record is returned as it is."""
    if not isinstance(payload, dict):
        return payload
    out = dict(payload)

    def items(container: Any) -> Any:
        if not isinstance(container, dict) or not isinstance(container.get("items"), list):
            return container
        renamed = []
        for item in container["items"]:
            if isinstance(item, dict):
                item = dict(item)
                if item.get("kind") == "drill" and "ref" in item:
                    item["ref"] = _renamed(item["ref"], renames)
                if "drill" in item:
                    item["drill"] = _renamed(item["drill"], renames)
            renamed.append(item)
        return {**container, "items": renamed}

    for key in ("plan", "scorecard"):
        if key in out:
            out[key] = items(out[key])
    if isinstance(out.get("results"), list):
        results = []
        for result in out["results"]:
            report = result.get("last_report") if isinstance(result, dict) else None
            if isinstance(report, dict) and "drill" in report:
                result = {**result, "last_report": {**report, "drill": _renamed(report["drill"], renames)}}
            results.append(result)
        out["results"] = results
    return out


def _clocks(value: Any, renames: dict[str, str]) -> Any:
    if not isinstance(value, dict):
        return value
    out = {}
    for drill_id, clock in value.items():  # a clock already kept under the new id is the newer one
        new = _renamed(drill_id, renames)
        if new != drill_id and new in value:
            continue
        out[new] = clock
    return out


def _previews(value: Any, renames: dict[str, str]) -> Any:
    if not isinstance(value, list):
        return value
    return [{**e, "ref": _renamed(e["ref"], renames)} if isinstance(e, dict) and e.get("kind") == "drill"
            and "ref" in e else e for e in value]


def _plan_extra(value: Any, renames: dict[str, str]) -> Any:
    if not isinstance(value, dict) or not isinstance(value.get("drills"), list):
        return value
    drills = [_renamed(d, renames) for d in value["drills"]]
    if all(isinstance(d, str) for d in drills):  # one entry per drill, as the plan keeps them
        drills = list(dict.fromkeys(drills))
    return {**value, "drills": drills}


#: the settings whose value names drills (the solve clocks, the preview log, today's plan extras), and how
SETTINGS_WITH_DRILLS: dict[str, Callable[[Any, dict[str, str]], Any]] = {
    "cli_clocks": _clocks,
    "preview_log": _previews,
    "plan_extra": _plan_extra,
}


def setting(key: str, value: Any, renames: dict[str, str]) -> Any:
    """Setting `key`'s value with its drill ids renamed (any other setting as it is)."""
    rename = SETTINGS_WITH_DRILLS.get(key)
    return value if rename is None else rename(value, renames)


def _json_changes(db: sqlite3.Connection, renames: dict[str, str]) -> tuple[list, list]:
    """(new payload, mock id) of every mock record and (new value, key) of every setting that names an old
    drill id, as JSON text. A value that is not JSON is left as it is: the store names it when it is read."""
    if not renames:
        return [], []

    def changed(text: Any, rename: Callable[[Any], Any]) -> str | None:
        try:
            value = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            return None
        new = rename(value)
        return None if new == value else json.dumps(new)

    mocks = [(new, mock_id) for mock_id, text in db.execute("SELECT id, payload FROM mock_session")
             if (new := changed(text, lambda v: mock_payload(v, renames))) is not None]
    marks = ",".join("?" * len(SETTINGS_WITH_DRILLS))
    settings = [(new, key) for key, text in db.execute(f"SELECT key, value FROM setting WHERE key IN ({marks})",
                                                        tuple(SETTINGS_WITH_DRILLS))
                if (new := changed(text, functools.partial(setting, key, renames=renames))) is not None]
    return mocks, settings


def drills_pending(db: sqlite3.Connection, renames: dict[str, str]) -> bool:
    """Whether any attempt, drill state, mock record or setting still names an old drill id (a read of the
    two tables' index and of the few JSON values that hold drill ids)."""
    if _rows_pending(db, renames, "drill_id", ("drill_attempt", "drill_state")):
        return True
    mocks, settings = _json_changes(db, renames)
    return bool(mocks or settings)


def follow_drills(db: sqlite3.Connection, renames: dict[str, str]) -> int:
    """Move every old drill id's attempts and schedule state to its new id (a state already kept under the
    new id wins, as for cards), and rename the drill ids inside mock records and settings; returns how many
    rows changed."""
    moved = _move_rows(db, renames, "drill_id", "drill_state", "drill_attempt")
    mocks, settings = _json_changes(db, renames)
    for new, mock_id in mocks:
        moved += db.execute("UPDATE mock_session SET payload = ? WHERE id = ?", (new, mock_id)).rowcount
    for new, key in settings:
        moved += db.execute("UPDATE setting SET value = ? WHERE key = ?", (new, key)).rowcount
    return moved


def followed_copy(db: sqlite3.Connection, cards: dict[str, str], drills: dict[str, str]) -> sqlite3.Connection:
    """An in-memory copy of `db` with both renames followed, for a store that cannot be written: it reads
    an old file under the new ids, and the file itself is not touched."""
    copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        db.backup(copy)
        copy.execute("BEGIN")
        follow(copy, cards)
        follow_drills(copy, drills)
        copy.execute("COMMIT")
    except BaseException:
        copy.close()
        raise
    return copy

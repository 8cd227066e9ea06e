"""Progress as portable JSON: `export_data()` and `import_data()` behind
`ProgressStore.export_json()` / `import_json()` and `ppo-drill export-progress` / `import-progress`.

The document is versioned (`format`, `version`) so a future ppo-drill can read old exports and an
old one refuses newer exports clearly. Import is a merge, not a restore: reviews, attempts and mocks
carry stable ids, so importing the same file twice adds nothing and two machines' histories combine.
Every field of every row is checked before it is written; a bad row is skipped and named with its
reason, and a file that is not an export at all imports nothing. Stored answer code is capped
(`MAX_STORED_CODE`), on export and import as when an attempt is recorded. An export made before a drill was
renamed imports under the drill's new id (`cards.progress.renames`): its attempts, states, saved answers,
mock records and settings alike.
"""
from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cards.progress import renames
from cards.progress.drafts import ANSWERS, load_draft, save_draft
from cards.progress.rows import BadRow, setting
from cards.progress.rows import choice as _choice
from cards.progress.rows import fsrs_state as _state
from cards.progress.rows import number as _number
from cards.progress.rows import text as _text
from cards.progress.rows import time as _time
from cards.progress.schema import SCHEMA_VERSION, put_state, utc_iso
from drills import load_drills

EXPORT_FORMAT = "ppo-drill-progress"
EXPORT_VERSION = 1
_LISTS = ("card_states", "reviews", "drill_attempts", "drill_states", "mocks")


def _rows(db: sqlite3.Connection, sql: str) -> list[dict]:
    cur = db.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur]


def _loads(text: str | None) -> Any:
    """A stored JSON value, or the text itself where it is not JSON (a damaged row is carried as it is:
    an import names and skips it, and nothing is lost on the way)."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def export_data(db: sqlite3.Connection) -> dict:
    """Every table as JSON-serialisable data; call inside one read transaction for a snapshot."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "exported_at": utc_iso(datetime.now(timezone.utc)),
        "card_states": [{"card_id": r["card_id"], "fsrs": _loads(r["fsrs"])}
                        for r in _rows(db, "SELECT card_id, fsrs FROM card_state ORDER BY card_id")],
        "reviews": [
            {**r, "state_before": _loads(r["state_before"]) if r["state_before"] else None,
             "state_after": _loads(r["state_after"])}
            for r in _rows(db, "SELECT uid, card_id, rating, reviewed_at, duration_ms, source, "
                               "state_before, state_after FROM review_log ORDER BY id")],
        "drill_attempts": [
            {**r, "passed": bool(r["passed"]), "mistakes": _loads(r["mistakes"]),
             "code": cap_code(str(r["code"] or ""))}
            for r in _rows(db, "SELECT uid, drill_id, framework, started_at, finished_at, elapsed_s, "
                               "passed, mistakes, code, source FROM drill_attempt ORDER BY id")],
        "drill_states": [{"drill_id": r["drill_id"], "fsrs": _loads(r["fsrs"])}
                         for r in _rows(db, "SELECT drill_id, fsrs FROM drill_state ORDER BY drill_id")],
        "mocks": [{**r, "payload": _loads(r["payload"])}
                  for r in _rows(db, "SELECT id, seed, started_at, finished_at, payload "
                                     "FROM mock_session ORDER BY started_at, id")],
        "settings": {k: _loads(v) for k, v in db.execute("SELECT key, value FROM setting ORDER BY key")},
    }


def validate_envelope(data: Any, name: str) -> None:
    """Refuse a document that is not one of our exports, or is newer, naming the field."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValueError(f"{name}: not a ppo-drill progress export (field 'format' must be "
                         f"{EXPORT_FORMAT!r})")
    version = data.get("version")
    if not isinstance(version, int) or version > EXPORT_VERSION or version < 1:
        raise ValueError(f"{name}: field 'version' is {version!r}; this ppo-drill reads export "
                         f"versions 1 to {EXPORT_VERSION} (upgrade ppo-drill for newer files)")
    for key in _LISTS:
        if not isinstance(data.get(key), list):
            raise ValueError(f"{name}: field {key!r} must be a list")
    if not isinstance(data.get("settings"), dict):
        raise ValueError(f"{name}: field 'settings' must be an object")


def _newer_state(db: sqlite3.Connection, table: str, key: str, ident: str, state: dict) -> bool:
    row = db.execute(f"SELECT last_review FROM {table} WHERE {key} = ?", (ident,)).fetchone()
    if row is None:
        return True
    if not state.get("last_review"):
        return False
    return row[0] is None or utc_iso(datetime.fromisoformat(state["last_review"])) > row[0]


# -- validation of each row: a bad row is skipped with its reason, the good ones are imported --------

#: The most characters of code one attempt keeps (the check itself always sees all of it). An
#: 80 MB answer would otherwise be stored whole, and exported whole.
MAX_STORED_CODE = 100_000
MAX_ELAPSED_S = 7 * 86400  # a drill attempt timed at over a week is a broken clock, not an attempt


def cap_code(code: str, limit: int = MAX_STORED_CODE) -> str:
    """`code`, or its first `limit` characters and a last line saying how much was left out."""
    if len(code) <= limit:
        return code
    return (code[:limit] + f"\n# [ppo-drill kept the first {limit:,} of {len(code):,} characters of this "
            f"answer in your progress]\n")


def _review(r: dict, _known: set[str]) -> tuple:
    before = r.get("state_before")
    return (_text(r, "uid"), _text(r, "card_id"), _number(r, "rating", 1, 4, whole=True),
            _time(r, "reviewed_at"), _number(r, "duration_ms", 0, 86_400_000, optional=True, whole=True) or 0,
            _choice(r, "source", ("user", "checker")),
            json.dumps(_state(before, "state_before")) if before is not None else None,
            json.dumps(_state(r.get("state_after"), "state_after")))


def _drill_id(row: dict, known: set[str]) -> str:
    drill_id = _text(row, "drill_id")
    drill_id = renames.renamed_drills().get(drill_id, drill_id)  # an export made before the drill was renamed
    if drill_id not in known:
        raise BadRow(f"unknown drill {drill_id!r}")
    return drill_id


def _attempt(a: dict, known: set[str]) -> tuple:
    mistakes = a.get("mistakes") or []
    if not isinstance(mistakes, list) or not all(isinstance(m, str) for m in mistakes):
        raise BadRow(f"field 'mistakes' must be a list of mistake ids, got {mistakes!r}")
    code = a.get("code") or ""
    if not isinstance(code, str):
        raise BadRow("field 'code' must be a string")
    return (_text(a, "uid"), _drill_id(a, known), _choice(a, "framework", ("numpy", "torch")),
            _time(a, "started_at"), _time(a, "finished_at", optional=True),
            _number(a, "elapsed_s", 0, MAX_ELAPSED_S, optional=True), int(_choice(a, "passed", (True, False))),
            json.dumps(mistakes), cap_code(code), _choice(a, "source", ("app", "cli")))


def _mock(m: dict, _known: set[str]) -> tuple:
    payload = m.get("payload")
    if not isinstance(payload, dict):
        raise BadRow(f"field 'payload' must be an object, got {type(payload).__name__}")
    return (_text(m, "id"), _number(m, "seed", -2**63, 2**63 - 1, whole=True), _time(m, "started_at"),
            _time(m, "finished_at", optional=True), json.dumps(renames.mock_payload(payload, renames.renamed_drills())))


def _checked_rows(data: dict, kind: str, check, known: set[str], skipped: list[str]):
    for index, row in enumerate(data[kind]):
        try:
            if not isinstance(row, dict):
                raise BadRow(f"must be an object, got {type(row).__name__}")
            yield row, check(row, known)
        except BadRow as exc:
            skipped.append(f"{kind}[{index}]: {exc}")


def _state_row(row: dict, key: str, known: set[str] | None) -> tuple:
    ident = _drill_id(row, known) if known is not None else _text(row, key)
    return ident, _state(row.get("fsrs"), "fsrs")


def import_data(db: sqlite3.Connection, data: dict, known_drills: set[str] | None = None
                ) -> tuple[dict[str, int], list[str]]:
    """Merge a validated document; call inside one write transaction.

    Every row is checked field by field first: a row with a bad field (a rating of 7, a negative
    time, an unknown drill, a date that is not a date) is skipped and its reason returned, and the
    good rows are imported. A card or drill state is replaced only by one with a later last review;
    settings from the file fill only keys not set here. Returns (rows added or updated per kind,
    reasons for each skipped row). `known_drills` defaults to the shipped drills' ids.
    """
    if known_drills is None:
        known_drills = {d.id for d in load_drills()}
    added = dict.fromkeys(("card_states", "reviews", "drill_attempts", "drill_states", "mocks",
                           "settings"), 0)
    skipped: list[str] = []
    for _row, values in _checked_rows(data, "reviews", _review, known_drills, skipped):
        cur = db.execute(
            "INSERT OR IGNORE INTO review_log (uid, card_id, rating, reviewed_at, duration_ms, "
            "source, state_before, state_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values)
        added["reviews"] += cur.rowcount
    for table, key, kind, known in (("card_state", "card_id", "card_states", None),
                                    ("drill_state", "drill_id", "drill_states", known_drills)):
        check = (lambda row, _k, key=key, known=known: _state_row(row, key, known))
        for _row, (ident, state) in _checked_rows(data, kind, check, known_drills, skipped):
            if _newer_state(db, table, key, ident, state):
                put_state(db, table, key, ident, state)
                added[kind] += 1
    for _row, values in _checked_rows(data, "drill_attempts", _attempt, known_drills, skipped):
        cur = db.execute(
            "INSERT OR IGNORE INTO drill_attempt (uid, drill_id, framework, started_at, finished_at, "
            "elapsed_s, passed, mistakes, code, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
        added["drill_attempts"] += cur.rowcount
    for _row, values in _checked_rows(data, "mocks", _mock, known_drills, skipped):
        cur = db.execute(
            "INSERT OR IGNORE INTO mock_session (id, seed, started_at, finished_at, payload) "
            "VALUES (?, ?, ?, ?, ?)", values)
        added["mocks"] += cur.rowcount
    for key, value in data["settings"].items():
        if not isinstance(key, str) or not key:
            skipped.append(f"settings: key {key!r} is not a name")
            continue
        value = renames.setting(key, value, renames.renamed_drills())
        try:
            setting(key, value)
        except BadRow as exc:
            skipped.append(f"settings: {exc}")
            continue
        cur = db.execute("INSERT OR IGNORE INTO setting (key, value) VALUES (?, ?)", (key, json.dumps(value)))
        added["settings"] += cur.rowcount
    return added, skipped


# -- saved answers (the drafts a candidate typed for each drill) ------------------------------------

def export_drafts(root, known_drills: set[str] | None = None) -> tuple[list[dict], list[str]]:
    """The saved answers under data folder `root` as export rows (drill_id, framework, code), and
    the "drill/framework" names of those left out: over `MAX_STORED_CODE` characters (a cut answer
    would not run) or not readable as text."""
    rows: list[dict] = []
    left_out: list[str] = []
    folder = Path(root) / ANSWERS
    if not folder.is_dir():
        return rows, left_out
    for path in sorted(folder.glob("*/*.py")):
        drill_id, framework = path.parent.name, path.stem
        if framework not in ("numpy", "torch") or (known_drills is not None and drill_id not in known_drills):
            continue
        try:
            code = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            left_out.append(f"{drill_id}/{framework}")
            continue
        if len(code) > MAX_STORED_CODE:
            left_out.append(f"{drill_id}/{framework}")
            continue
        rows.append({"drill_id": drill_id, "framework": framework, "code": code})
    return rows, left_out


def import_drafts(root, data: dict, known_drills: set[str], skipped: list[str]) -> int:
    """Save the export's answers under data folder `root` where there is none yet (an answer already
    here is the user's newer work: it is kept, and the imported one skipped with that reason).
    Returns how many were written."""
    rows = data.get("drafts") or []
    if not isinstance(rows, list):
        skipped.append("drafts: must be a list")
        return 0
    written = 0
    for index, row in enumerate(rows):
        try:
            if not isinstance(row, dict):
                raise BadRow(f"must be an object, got {type(row).__name__}")
            drill_id = _drill_id(row, known_drills)
            framework = _choice(row, "framework", ("numpy", "torch"))
            code = row.get("code")
            if not isinstance(code, str):
                raise BadRow("field 'code' must be a string")
            if len(code) > MAX_STORED_CODE:
                raise BadRow(f"the answer has {len(code):,} characters; at most {MAX_STORED_CODE:,} are imported")
            try:
                here = load_draft(drill_id, framework, root)
            except OSError as exc:
                raise BadRow(f"the saved answer here cannot be read ({exc}); it was left alone") from None
            if here == code:
                continue
            if here is not None:
                raise BadRow(f"{drill_id} ({framework}) already has a different saved answer here; kept it")
            save_draft(drill_id, framework, code, root)
            written += 1
        except BadRow as exc:
            skipped.append(f"drafts[{index}]: {exc}")
    return written


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through `<path>.tmp` and a rename, so `path` is either the old file or
    the whole new one. On any failure (a full disk, a read-only folder) the temporary file is
    removed and the error is raised for `path` itself."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise

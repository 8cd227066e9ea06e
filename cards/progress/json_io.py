"""Progress as portable JSON: `export_data()` and `import_data()` behind
`ProgressStore.export_json()` / `import_json()` and `ppo-drill export-progress` / `import-progress`.

The document is versioned (`format`, `version`) so a future ppo-drill can read old exports and an
old one refuses newer exports clearly. Import is a merge, not a restore: reviews, attempts and mocks
carry stable ids, so importing the same file twice adds nothing and two machines' histories combine.
"""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from typing import Any

from cards.progress.schema import SCHEMA_VERSION, parse_iso, put_state, utc_iso

EXPORT_FORMAT = "ppo-drill-progress"
EXPORT_VERSION = 1
_LISTS = ("card_states", "reviews", "drill_attempts", "drill_states", "mocks")


def _rows(db: sqlite3.Connection, sql: str) -> list[dict]:
    cur = db.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur]


def export_data(db: sqlite3.Connection) -> dict:
    """Every table as JSON-serialisable data; call inside one read transaction for a snapshot."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "exported_at": utc_iso(datetime.now(timezone.utc)),
        "card_states": [{"card_id": r["card_id"], "fsrs": json.loads(r["fsrs"])}
                        for r in _rows(db, "SELECT card_id, fsrs FROM card_state ORDER BY card_id")],
        "reviews": [
            {**r, "state_before": json.loads(r["state_before"]) if r["state_before"] else None,
             "state_after": json.loads(r["state_after"])}
            for r in _rows(db, "SELECT uid, card_id, rating, reviewed_at, duration_ms, source, "
                               "state_before, state_after FROM review_log ORDER BY id")],
        "drill_attempts": [
            {**r, "passed": bool(r["passed"]), "mistakes": json.loads(r["mistakes"])}
            for r in _rows(db, "SELECT uid, drill_id, framework, started_at, finished_at, elapsed_s, "
                               "passed, mistakes, code, source FROM drill_attempt ORDER BY id")],
        "drill_states": [{"drill_id": r["drill_id"], "fsrs": json.loads(r["fsrs"])}
                         for r in _rows(db, "SELECT drill_id, fsrs FROM drill_state ORDER BY drill_id")],
        "mocks": [{**r, "payload": json.loads(r["payload"])}
                  for r in _rows(db, "SELECT id, seed, started_at, finished_at, payload "
                                     "FROM mock_session ORDER BY started_at, id")],
        "settings": {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM setting ORDER BY key")},
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


def _opt_time(value: Any) -> str | None:
    return utc_iso(parse_iso(value)) if value else None


def import_data(db: sqlite3.Connection, data: dict) -> dict[str, int]:
    """Merge a validated document; call inside one write transaction (all or nothing).

    A card or drill state is replaced only by one with a later last review; settings from the
    file fill only keys not set here. Returns rows added or updated per kind. Malformed rows
    raise KeyError / TypeError / ValueError (the caller rolls back and reports).
    """
    added = dict.fromkeys(("card_states", "reviews", "drill_attempts", "drill_states", "mocks",
                           "settings"), 0)
    for r in data["reviews"]:
        cur = db.execute(
            "INSERT OR IGNORE INTO review_log (uid, card_id, rating, reviewed_at, duration_ms, "
            "source, state_before, state_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (r["uid"], r["card_id"], r["rating"], utc_iso(parse_iso(r["reviewed_at"])),
             r.get("duration_ms") or 0, r["source"],
             json.dumps(r["state_before"]) if r.get("state_before") else None,
             json.dumps(r["state_after"])))
        added["reviews"] += cur.rowcount
    for table, key, kind in (("card_state", "card_id", "card_states"),
                             ("drill_state", "drill_id", "drill_states")):
        for item in data[kind]:
            if _newer_state(db, table, key, item[key], item["fsrs"]):
                put_state(db, table, key, item[key], item["fsrs"])
                added[kind] += 1
    for a in data["drill_attempts"]:
        cur = db.execute(
            "INSERT OR IGNORE INTO drill_attempt (uid, drill_id, framework, started_at, finished_at, "
            "elapsed_s, passed, mistakes, code, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (a["uid"], a["drill_id"], a["framework"], utc_iso(parse_iso(a["started_at"])),
             _opt_time(a.get("finished_at")), a.get("elapsed_s"), int(bool(a["passed"])),
             json.dumps(list(a.get("mistakes") or [])), a.get("code") or "", a["source"]))
        added["drill_attempts"] += cur.rowcount
    for m in data["mocks"]:
        cur = db.execute(
            "INSERT OR IGNORE INTO mock_session (id, seed, started_at, finished_at, payload) "
            "VALUES (?, ?, ?, ?, ?)",
            (m["id"], int(m["seed"]), utc_iso(parse_iso(m["started_at"])),
             _opt_time(m.get("finished_at")), json.dumps(m.get("payload"))))
        added["mocks"] += cur.rowcount
    for key, value in data["settings"].items():
        cur = db.execute("INSERT OR IGNORE INTO setting (key, value) VALUES (?, ?)", (key, json.dumps(value)))
        added["settings"] += cur.rowcount
    return added

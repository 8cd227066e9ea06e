"""The progress database's on-disk format: schema migrations, version, file marker, time format.

`MIGRATIONS[i]` upgrades a file from `PRAGMA user_version` i to i + 1; the store runs each in one
transaction with its version bump, so a file is always at exactly one known version. Append new
migrations; never edit a released one (users' files were built by it).

Times are stored as ISO-8601 UTC strings of fixed width, so text order is time order and the
`due` / `reviewed_at` indexes answer range queries directly.
"""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from typing import Callable

APPLICATION_ID = 0x50504F44  # "PPOD" in `PRAGMA application_id`: marks the file as ours


#: What every part of the app asks for the time: `utc_now` unless a test or a replay passes a fixed one.
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The default clock: an aware UTC datetime."""
    return datetime.now(timezone.utc)


def utc_iso(when: datetime) -> str:
    """A fixed-width UTC ISO string (text order equals time order); naive datetimes are rejected."""
    if when.tzinfo is None:
        raise ValueError(f"datetime must be timezone-aware: {when!r}")
    return when.astimezone(timezone.utc).isoformat(timespec="microseconds")


def parse_iso(text: str) -> datetime:
    """Inverse of `utc_iso`: an aware UTC datetime."""
    return datetime.fromisoformat(text).astimezone(timezone.utc)


def _run_ddl(db: sqlite3.Connection, script: str) -> None:
    """Run DDL statements one by one: `executescript` would COMMIT first and break the
    migration's atomicity with its version bump."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _migration_1(db: sqlite3.Connection) -> None:
    """Cards: schedule state per card and the review log (with states for undo)."""
    _run_ddl(
        db,
        """
        CREATE TABLE card_state (
            card_id     TEXT PRIMARY KEY,
            fsrs        TEXT NOT NULL,
            due         TEXT NOT NULL,
            state       INTEGER NOT NULL,
            last_review TEXT
        ) WITHOUT ROWID;
        CREATE INDEX card_state_due ON card_state (due);
        CREATE TABLE review_log (
            id           INTEGER PRIMARY KEY,
            uid          TEXT NOT NULL UNIQUE,
            card_id      TEXT NOT NULL,
            rating       INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
            reviewed_at  TEXT NOT NULL,
            duration_ms  INTEGER NOT NULL DEFAULT 0,
            source       TEXT NOT NULL CHECK (source IN ('user', 'checker')),
            state_before TEXT,
            state_after  TEXT NOT NULL
        );
        CREATE INDEX review_log_card ON review_log (card_id, id);
        CREATE INDEX review_log_time ON review_log (reviewed_at);
        """
    )


def _migration_2(db: sqlite3.Connection) -> None:
    """Drills and mocks (schema version 2): attempts, drill schedule states, mock sessions, settings."""
    _run_ddl(
        db,
        """
        CREATE TABLE drill_attempt (
            id          INTEGER PRIMARY KEY,
            uid         TEXT NOT NULL UNIQUE,
            drill_id    TEXT NOT NULL,
            framework   TEXT NOT NULL,
            started_at  TEXT NOT NULL,
            finished_at TEXT,
            elapsed_s   REAL,
            passed      INTEGER NOT NULL CHECK (passed IN (0, 1)),
            mistakes    TEXT NOT NULL DEFAULT '[]',
            code        TEXT NOT NULL DEFAULT '',
            source      TEXT NOT NULL CHECK (source IN ('app', 'cli'))
        );
        CREATE INDEX drill_attempt_drill ON drill_attempt (drill_id, id);
        CREATE TABLE drill_state (
            drill_id    TEXT PRIMARY KEY,
            fsrs        TEXT NOT NULL,
            due         TEXT NOT NULL,
            state       INTEGER NOT NULL,
            last_review TEXT
        ) WITHOUT ROWID;
        CREATE INDEX drill_state_due ON drill_state (due);
        CREATE TABLE mock_session (
            id          TEXT PRIMARY KEY,
            seed        INTEGER NOT NULL,
            started_at  TEXT NOT NULL,
            finished_at TEXT,
            payload     TEXT NOT NULL DEFAULT '{}'
        ) WITHOUT ROWID;
        CREATE TABLE setting (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """
    )


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_migration_1, _migration_2)
SCHEMA_VERSION = len(MIGRATIONS)


def put_state(db: sqlite3.Connection, table: str, key: str, ident: str, state: dict) -> None:
    """Upsert an FSRS state (`fsrs.Card.to_dict()` data) into `card_state` or `drill_state`,
    keeping the indexed `due` / `state` / `last_review` columns in step with the JSON."""
    db.execute(
        f"INSERT INTO {table} ({key}, fsrs, due, state, last_review) VALUES (?, ?, ?, ?, ?) "
        f"ON CONFLICT({key}) DO UPDATE SET fsrs = excluded.fsrs, due = excluded.due, "
        f"state = excluded.state, last_review = excluded.last_review",
        (ident, json.dumps(state), utc_iso(datetime.fromisoformat(state["due"])), int(state["state"]),
         utc_iso(datetime.fromisoformat(state["last_review"])) if state.get("last_review") else None))

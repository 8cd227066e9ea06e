"""The progress store: `ProgressStore`, `open_store()`, `StoreError` and the row records.

One SQLite file, `<data_dir>/progress.sqlite3`, holds everything a user must never lose: card
schedule states and every review, drill attempts and drill schedule states, mock interviews and
settings. Why it is built this way:

- Each write is its own short `BEGIN IMMEDIATE` transaction committed as it happens, in WAL mode
  with `synchronous = FULL` (about 0.2 ms a commit here; reviews are user-paced), so killing the
  process, or even losing power, loses at most the write in flight and two processes never interleave a
  read-modify-write (the scheduler reads a card's state inside the same transaction it writes in).
- A file that is not a database, fails `PRAGMA quick_check`, belongs to another program, or has a
  schema version newer than this code is refused with `StoreError` before anything is written:
  the user's bytes stay exactly as they were.
- The schema (`cards.progress.schema`) is versioned with `PRAGMA user_version` and an ordered list of
  migrations, each run in the same transaction as its version bump, after a backup of the file.
- A card or drill renamed by a content change keeps its history: an open moves what is kept under the old
  id to the new one (`cards.progress.renames`), a read-only file is read that way without being touched.

JSON export / import lives in `cards.progress.json_io`.
"""
from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from cards.progress import json_io, renames, rows
from cards.progress.drafts import follow_renames as move_renamed_answers
from cards.progress.faults import describe_fault, is_damage, kind_of
from cards.progress.header import peek
from cards.progress.paths import data_dir as default_dir
from cards.progress.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    parse_iso,
    put_state,
    utc_iso,
)
from drills import load_drills

__all__ = ["ProgressStore", "StoreError", "open_store", "store_path", "Review", "Attempt", "Mock", "ImportResult",
           "SCHEMA_VERSION", "utc_iso", "parse_iso"]

DB_NAME = "progress.sqlite3"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_MISSING = object()
#: every row any store of this process could not read, in the order met (`reported_problems`)
_REPORTED: list[str] = []


def reported_problems() -> list[str]:
    """The rows of the progress this process could not read so far (each named once, with why)."""
    return list(_REPORTED)


class StoreError(Exception):
    """The progress file cannot be used safely; the message names the path and what to do."""


@dataclass(frozen=True)
class Review:
    """One row of the review log. `state_before` is None for a card's first review."""

    id: int
    uid: str
    card_id: str
    rating: int
    reviewed_at: datetime
    duration_ms: int
    source: str
    state_before: dict | None
    state_after: dict


@dataclass(frozen=True)
class Attempt:
    """One drill attempt, as recorded by the app or `ppo-drill check`."""

    id: int
    uid: str
    drill_id: str
    framework: str
    started_at: datetime
    finished_at: datetime | None
    elapsed_s: float | None
    passed: bool
    mistakes: list[str]
    code: str
    source: str


@dataclass(frozen=True)
class Mock:
    """One mock interview session; `payload` is the caller's JSON data."""

    id: str
    seed: int
    started_at: datetime
    finished_at: datetime | None
    payload: Any


def _on_read_only_file_system(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _check_file(path: Path) -> None:
    """Refuse, before opening, anything that is not an SQLite file (without touching it)."""
    try:
        if path.is_dir():
            raise StoreError(f"{path} is a folder, not a progress database; move it aside and run again.")
        size = path.stat().st_size
        if size == 0:
            return
        with open(path, "rb") as fh:
            head = fh.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(describe_fault(path, exc, "read")
                         or f"cannot read progress database {path}: {exc.strerror or exc}") from exc
    if head != _SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not a ppo-drill progress database (it is not an SQLite file). "
            f"It was left untouched: move it aside (or restore it from a backup or an "
            f"`export-progress` file) and run again."
        )


class ProgressStore:
    """All of a user's progress in one SQLite file. Construct with the file's path.

    Raises `StoreError` if the file is corrupt, foreign or newer than this code; in that case
    nothing has been written to it. Use as a context manager or call `close()`.
    """

    def __init__(self, path: Path | str, *, check: bool = True, timeout_s: float = 10.0) -> None:
        self.path = Path(path)
        self.problems: list[str] = []  # rows this store could not read (left as they are, read as absent)
        self._depth = 0
        self._gen = 0
        self._lock = threading.RLock()  # the app's worker threads share one connection
        _check_file(self.path)
        self._refuse_by_header()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(describe_fault(self.path.parent / ".", exc, "created")
                             or f"cannot create {self.path.parent}: {exc.strerror or exc}") from exc
        # On a read-only file system nothing can change the file, so it is read as it is (immutable: no
        # -wal or -shm to make), and every write is refused with the read-only advice, never as damage.
        self.read_only = _on_read_only_file_system(self.path.parent) and self.path.exists()
        try:
            if self.read_only:
                db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                                     timeout=timeout_s, isolation_level=None, check_same_thread=False)
            else:
                db = sqlite3.connect(self.path, timeout=timeout_s, isolation_level=None,
                                     check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._fault(exc, "opened") from exc
        self._db = db
        try:
            self._inspect(check)
            db.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
            if not self.read_only:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = FULL")  # a committed review survives power loss too
            db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
            self._follow_renames()
        except sqlite3.Error as exc:
            db.close()
            raise self._fault(exc, "opened") from exc
        except BaseException:
            db.close()
            raise

    # -- opening -----------------------------------------------------------------------------

    def _damaged(self, why: object) -> StoreError:
        return StoreError(
            f"{self.path} is damaged and cannot be used ({why}). It was left untouched: "
            f"move it aside, restore a backup or import an `export-progress` file into a "
            f"fresh data folder, and run again."
        )

    def _fault(self, exc: BaseException, doing: str) -> StoreError:
        """A full disk, a read-only file system or a permission problem, told apart from damage."""
        if is_damage(exc):
            return self._damaged(exc)
        return StoreError(describe_fault(self.path, exc, doing)
                          or f"progress database {self.path} could not be {doing}: {exc}")

    def _read_only_refusal(self, doing: str) -> str:
        return describe_fault(self.path, OSError(errno.EROFS, os.strerror(errno.EROFS)), doing) or ""

    def _refuse_by_header(self) -> None:
        """Refuse a newer or foreign file before SQLite opens it: closing a connection would
        checkpoint and delete its -wal file, so "left untouched" would not be true."""
        head = peek(self.path) if self.path.exists() else None
        if head is None:
            return
        if head.application_id not in (0, APPLICATION_ID):
            raise StoreError(
                f"{self.path} is an SQLite database from another program, not ppo-drill progress. "
                f"It was left untouched: move it aside or choose another --data-dir."
            )
        if head.user_version > SCHEMA_VERSION:
            raise self._newer(head.user_version)

    def _newer(self, version: int) -> StoreError:
        return StoreError(
            f"{self.path} was written by a newer ppo-drill (schema version {version}; this "
            f"version knows up to {SCHEMA_VERSION}). It was left untouched: upgrade ppo-drill "
            f"to use it."
        )

    def _inspect(self, check: bool) -> None:
        """Read-only checks: corrupt, foreign or newer files raise before any write."""
        db = self._db
        try:
            db.execute("PRAGMA busy_timeout = 10000")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            problems = [r[0] for r in db.execute("PRAGMA quick_check(5)")] if check else ["ok"]
        except sqlite3.DatabaseError as exc:
            if is_damage(exc) or kind_of(self.path, exc) in (None, "damaged"):
                raise self._damaged(exc) from exc
            raise self._fault(exc, "opened") from exc
        if problems != ["ok"]:
            raise self._damaged("; ".join(problems))
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables > 0):
            raise StoreError(
                f"{self.path} is an SQLite database from another program, not ppo-drill progress. "
                f"It was left untouched: move it aside or choose another --data-dir."
            )
        if version > SCHEMA_VERSION:
            raise self._newer(version)

    def _migrate(self) -> None:
        """Apply pending migrations, each in its own transaction with its version bump.

        An existing file is first copied to `progress.v<N>.backup.sqlite3` (SQLite's online
        backup, consistent even with other readers), so an upgrade can always be undone.
        """
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if self.read_only:
            if version < SCHEMA_VERSION:
                raise StoreError(self._read_only_refusal(f"upgraded from schema version {version}"))
            return
        if 0 < version < SCHEMA_VERSION:
            backup = self.path.with_name(f"{self.path.stem}.v{version}.backup{self.path.suffix}")
            if not backup.exists():
                target = sqlite3.connect(backup)
                try:
                    self._db.backup(target)
                finally:
                    target.close()
        while True:
            with self._write():
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version >= SCHEMA_VERSION:
                    if version > SCHEMA_VERSION:  # another process upgraded meanwhile
                        raise StoreError(f"{self.path} was upgraded by a newer ppo-drill while opening.")
                    return
                MIGRATIONS[version](self._db)
                self._db.execute(f"PRAGMA user_version = {version + 1}")
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def _follow_renames(self) -> None:
        """Move rows kept under a renamed card's or drill's old id to its new one (`cards.progress.renames`),
        and this data folder's saved answers with them (`cards.progress.drafts.follow_renames`). A store
        that cannot be written reads an in-memory copy with the renames followed, so an old file on a
        read-only disk shows everything under the new ids and is not touched."""
        cards, drills = renames.renamed_cards(), renames.renamed_drills()
        due = renames.pending(self._db, cards) or renames.drills_pending(self._db, drills)
        if self.read_only:
            if due:
                old, self._db = self._db, renames.followed_copy(self._db, cards, drills)
                old.close()
            return
        if due:
            with self._write() as db:
                renames.follow(db, cards)
                renames.follow_drills(db, drills)
        move_renamed_answers(self.path.parent, drills)

    @property
    def schema_version(self) -> int:
        """The schema version of the open file."""
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        """Close the connection (all writes are already committed)."""
        self._db.close()

    def __enter__(self) -> "ProgressStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE takes the write lock up front); nests.

        SQLite failures while writing (disk full, read-only folder, lock timeout) become a
        `StoreError`; the transaction is rolled back, so earlier commits are untouched.
        """
        if self.read_only:
            raise StoreError(self._read_only_refusal("written") + " This change was not saved.")
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._db
                finally:
                    self._depth -= 1
                return
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                reason = describe_fault(self.path, exc, "written")
                if reason is None or kind_of(self.path, exc) == "busy":
                    raise StoreError(f"cannot write to {self.path}: {exc}. Nothing was lost; "
                                     f"try again (is another program holding it?).") from exc
                raise StoreError(f"{reason} This change was not saved.") from exc
            self._depth = 1
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as exc:
                self._depth = 0
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError):
                    reason = describe_fault(self.path, exc, "written") or f"cannot write to {self.path}: {exc}."
                    raise StoreError(f"{reason} This change was not saved; earlier progress is safe.") from exc
                raise
            self._depth = 0
            self._gen += 1

    def transaction(self) -> Any:
        """Group reads and writes into one atomic write transaction (used by the scheduler so
        a card's state is read and updated under the same lock)."""
        return self._write()

    def change_token(self) -> tuple[int, int]:
        """Changes whenever anyone (this or another process) commits; lets callers cache reads."""
        return (self._gen, self._db.execute("PRAGMA data_version").fetchone()[0])

    def integrity_ok(self) -> bool:
        """Full `PRAGMA integrity_check` (slow on big files; for tests and diagnostics)."""
        return [r[0] for r in self._db.execute("PRAGMA integrity_check")] == ["ok"]

    # -- rows that cannot be read --------------------------------------------------------------

    def _problem(self, what: str) -> None:
        """Name a row that cannot be read (it stays in the database as it is and is read as absent)."""
        if what not in self.problems:
            self.problems.append(what)
        if what not in _REPORTED:
            _REPORTED.append(what)

    def _state(self, what: str, text: str) -> dict | None:
        """An FSRS state read back: the checked dict, or None (and the row named) when it cannot be used."""
        try:
            return rows.fsrs_state(json.loads(text), "fsrs")
        except (ValueError, TypeError, RecursionError) as exc:
            self._problem(f"{what}: {exc}")
            return None

    def _when(self, what: str, text: str) -> datetime | None:
        try:
            return rows.moment(text, "due")
        except rows.BadRow as exc:
            self._problem(f"{what}: {exc}")
            return None

    # -- cards -------------------------------------------------------------------------------

    def card_state(self, card_id: str) -> dict | None:
        """The card's FSRS state as `fsrs.Card.to_dict()` data, or None if never reviewed."""
        row = self._db.execute("SELECT fsrs FROM card_state WHERE card_id = ?", (card_id,)).fetchone()
        return self._state(f"card {card_id!r}", row[0]) if row else None

    def card_states(self) -> dict[str, tuple[datetime, int]]:
        """Every reviewed card's (due, FSRS state number), including cards no longer in a deck."""
        return {cid: (when, state) for cid, due, state in self._db.execute("SELECT card_id, due, state FROM card_state")
                if (when := self._when(f"card {cid!r}", due)) is not None}

    def known_card_ids(self) -> set[str]:
        """Ids of all cards that have a schedule state (i.e. are not new)."""
        return {r[0] for r in self._db.execute("SELECT card_id FROM card_state")}

    def iter_due(self, now: datetime, states: tuple[int, ...]) -> Iterator[tuple[str, datetime]]:
        """Cards in the given FSRS states due at or before `now`, earliest first (lazy cursor)."""
        marks = ",".join("?" * len(states))
        cur = self._db.execute(
            f"SELECT card_id, due FROM card_state WHERE due <= ? AND state IN ({marks}) "
            f"ORDER BY due, card_id", (utc_iso(now), *states))
        for cid, due in cur:
            when = self._when(f"card {cid!r}", due)
            if when is not None:
                yield cid, when

    def new_cards_since(self, since: datetime) -> int:
        """How many cards got their first review at or after `since` (the new-card allowance)."""
        return self._db.execute(
            "SELECT count(*) FROM review_log WHERE reviewed_at >= ? AND state_before IS NULL",
            (utc_iso(since),)).fetchone()[0]

    def record_review(self, card_id: str, rating: int, reviewed_at: datetime, state_after: dict,
                      *, state_before: dict | None, duration_ms: int = 0,
                      source: str = "user") -> int:
        """Append a review and set the card's state, atomically; returns the review's id.

        `state_after` / `state_before` are `fsrs.Card.to_dict()` data (before is None for a new
        card). The scheduler calls this inside `transaction()` after reading the state.
        """
        if rating not in (1, 2, 3, 4):
            raise ValueError(f"rating must be 1-4, got {rating!r}")
        if source not in ("user", "checker"):
            raise ValueError(f"review source must be 'user' or 'checker', got {source!r}")
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO review_log (uid, card_id, rating, reviewed_at, duration_ms, source, "
                "state_before, state_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (uuid.uuid4().hex, card_id, rating, utc_iso(reviewed_at), int(duration_ms), source,
                 json.dumps(state_before) if state_before is not None else None,
                 json.dumps(state_after)))
            put_state(db, "card_state", "card_id", card_id, state_after)
            return int(cur.lastrowid)

    def undo_review(self, review_id: int) -> str | None:
        """Remove review `review_id` and restore the card's state before it.

        Only the card's latest review can be undone (a later one was computed from it); returns
        the card id, or None if the review is gone or is no longer the card's latest.
        """
        with self._write() as db:
            row = db.execute("SELECT card_id, state_before FROM review_log WHERE id = ?",
                             (review_id,)).fetchone()
            if row is None:
                return None
            card_id, before = row
            latest = db.execute("SELECT max(id) FROM review_log WHERE card_id = ?", (card_id,)).fetchone()[0]
            if latest != review_id:
                return None
            db.execute("DELETE FROM review_log WHERE id = ?", (review_id,))
            if before is None:
                db.execute("DELETE FROM card_state WHERE card_id = ?", (card_id,))
            else:
                put_state(db, "card_state", "card_id", card_id, json.loads(before))
            return card_id

    def reviews(self, card_id: str | None = None, since: datetime | None = None) -> list[Review]:
        """Review log rows, oldest first, optionally for one card and/or from `since` on."""
        where, args = [], []
        if card_id is not None:
            where.append("card_id = ?")
            args.append(card_id)
        if since is not None:
            where.append("reviewed_at >= ?")
            args.append(utc_iso(since))
        sql = ("SELECT id, uid, card_id, rating, reviewed_at, duration_ms, source, state_before, "
               "state_after FROM review_log" + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY id")
        out = []
        for r in self._db.execute(sql, args):
            try:
                out.append(Review(r[0], r[1], r[2], r[3], rows.moment(r[4], "reviewed_at"), r[5], r[6],
                                  rows.fsrs_state(json.loads(r[7]), "state_before") if r[7] is not None else None,
                                  rows.fsrs_state(json.loads(r[8]), "state_after")))
            except (ValueError, TypeError) as exc:
                self._problem(f"review {r[0]} of card {r[2]!r}: {exc}")
        return out

    # -- drills ------------------------------------------------------------------------------

    def record_attempt(self, drill_id: str, *, framework: str, started_at: datetime,
                       passed: bool, finished_at: datetime | None = None,
                       elapsed_s: float | None = None, mistakes: list[str] | tuple[str, ...] = (),
                       code: str = "", source: str = "app") -> int:
        """Append one drill attempt (committed at once); returns its id."""
        if source not in ("app", "cli"):
            raise ValueError(f"attempt source must be 'app' or 'cli', got {source!r}")
        code = json_io.cap_code(code)  # the check saw all of it; the history keeps the first 100k
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO drill_attempt (uid, drill_id, framework, started_at, finished_at, "
                "elapsed_s, passed, mistakes, code, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (uuid.uuid4().hex, drill_id, framework, utc_iso(started_at),
                 utc_iso(finished_at) if finished_at else None, elapsed_s, int(bool(passed)),
                 json.dumps(list(mistakes)), code, source))
            return int(cur.lastrowid)

    def attempts(self, drill_id: str | None = None) -> list[Attempt]:
        """Drill attempts, oldest first, optionally for one drill."""
        sql = ("SELECT id, uid, drill_id, framework, started_at, finished_at, elapsed_s, passed, "
               "mistakes, code, source FROM drill_attempt")
        args: tuple = ()
        if drill_id is not None:
            sql += " WHERE drill_id = ?"
            args = (drill_id,)
        out = []
        for r in self._db.execute(sql + " ORDER BY id", args):
            try:
                mistakes = json.loads(r[8])
                if not isinstance(mistakes, list) or not all(isinstance(m, str) for m in mistakes):
                    raise rows.BadRow(f"field 'mistakes' must be a list of ids, got {mistakes!r}"[:200])
                if r[6] is not None and not isinstance(r[6], (int, float)):
                    raise rows.BadRow(f"field 'elapsed_s' must be a number, got {r[6]!r}"[:200])
                out.append(Attempt(r[0], r[1], r[2], r[3], rows.moment(r[4], "started_at"),
                                   rows.moment(r[5], "finished_at") if r[5] else None, r[6], bool(r[7]),
                                   mistakes, r[9] if isinstance(r[9], str) else "", r[10]))
            except (ValueError, TypeError) as exc:
                self._problem(f"attempt {r[0]} of drill {r[2]!r}: {exc}")
        return out

    def drill_state(self, drill_id: str) -> dict | None:
        """The drill's FSRS state (`fsrs.Card.to_dict()` data) or None if never scheduled."""
        row = self._db.execute("SELECT fsrs FROM drill_state WHERE drill_id = ?", (drill_id,)).fetchone()
        return self._state(f"drill {drill_id!r}", row[0]) if row else None

    def set_drill_state(self, drill_id: str, state: dict) -> None:
        """Store a drill's FSRS state."""
        with self._write() as db:
            put_state(db, "drill_state", "drill_id", drill_id, state)

    def drill_states(self) -> dict[str, datetime]:
        """Every scheduled drill's due time."""
        return {d: when for d, due in self._db.execute("SELECT drill_id, due FROM drill_state")
                if (when := self._when(f"drill {d!r}", due)) is not None}

    def fsrs_states(self, kind: str) -> dict[str, dict]:
        """Every FSRS state (`fsrs.Card.to_dict()` data) of `kind` "card" or "drill", by id (one
        read, for predictions over the whole collection)."""
        if kind not in ("card", "drill"):
            raise ValueError(f"kind must be 'card' or 'drill', got {kind!r}")
        return {k: state for k, v in self._db.execute(f"SELECT {kind}_id, fsrs FROM {kind}_state")
                if (state := self._state(f"{kind} {k!r}", v)) is not None}

    # -- mocks and settings ------------------------------------------------------------------

    def record_mock(self, *, seed: int, started_at: datetime, payload: Any,
                    finished_at: datetime | None = None, mock_id: str | None = None) -> str:
        """Create or update (same `mock_id`) a mock session; returns its id."""
        mock_id = mock_id or uuid.uuid4().hex
        with self._write() as db:
            db.execute(
                "INSERT INTO mock_session (id, seed, started_at, finished_at, payload) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seed = excluded.seed, "
                "started_at = excluded.started_at, finished_at = excluded.finished_at, "
                "payload = excluded.payload",
                (mock_id, int(seed), utc_iso(started_at),
                 utc_iso(finished_at) if finished_at else None, json.dumps(payload)))
        return mock_id

    def mocks(self) -> list[Mock]:
        """All mock sessions, oldest first."""
        out = []
        for r in self._db.execute("SELECT id, seed, started_at, finished_at, payload FROM mock_session "
                                  "ORDER BY started_at, id"):
            try:
                payload = json.loads(r[4])
                if not isinstance(payload, dict):
                    raise rows.BadRow("field 'payload' must be an object")
                out.append(Mock(r[0], r[1], rows.moment(r[2], "started_at"),
                                rows.moment(r[3], "finished_at") if r[3] else None, payload))
            except (ValueError, TypeError) as exc:
                self._problem(f"mock {r[0]!r}: {exc}")
        return out

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A setting's JSON value, or `default`."""
        row = self._db.execute("SELECT value FROM setting WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return rows.setting(key, json.loads(row[0]))
        except (ValueError, TypeError, RecursionError) as exc:
            self._problem(f"{exc}; the default is used")
            return default

    def set_setting(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable setting."""
        with self._write() as db:
            db.execute("INSERT INTO setting (key, value) VALUES (?, ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

    def settings(self) -> dict[str, Any]:
        """All settings."""
        out = {}
        for key, _ in self._db.execute("SELECT key, value FROM setting").fetchall():
            value = self.get_setting(key, _MISSING)
            if value is not _MISSING:
                out[key] = value
        return out

    # -- export / import ---------------------------------------------------------------------

    def export_json(self, drafts: bool = True) -> dict:
        """Everything in the store as versioned, JSON-serialisable data (see `cards.progress.json_io`),
        with the saved answers of the data folder it lives in (`drafts`, and `drafts_left_out`: those
        too large to carry) unless `drafts` is False."""
        with self._lock:
            self._db.execute("BEGIN")  # one consistent snapshot
            try:
                data = json_io.export_data(self._db)
            finally:
                self._db.execute("COMMIT")
        if drafts:
            data["drafts"], data["drafts_left_out"] = json_io.export_drafts(self.path.parent)
        return data

    def import_json(self, data: Any, *, source_name: str = "import", drafts: bool = True,
                    known_drills: set[str] | None = None) -> "ImportResult":
        """Merge an `export_json` document into this store; idempotent.

        A document that is not an export (or is newer) raises ValueError naming the file and field,
        and nothing is written. Otherwise every row is checked field by field: bad rows are skipped
        (`ImportResult.skipped` says which and why) and the rest imported in one transaction.
        Reviews, attempts and mocks are matched by their ids, so importing twice adds nothing. Saved
        answers go into this store's data folder where it has none for that drill yet.
        """
        json_io.validate_envelope(data, source_name)
        if known_drills is None:
            known_drills = {d.id for d in load_drills()}
        try:
            with self._write() as db:
                added, skipped = json_io.import_data(db, data, known_drills)
                renames.follow(db, renames.renamed_cards())  # an export made before a card was renamed
                # (`import_data` reads an export's old drill ids as the new ones itself)
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"{source_name}: malformed progress data ({exc}); nothing was imported") from exc
        if drafts:
            added["drafts"] = json_io.import_drafts(self.path.parent, data, known_drills, skipped)
        return ImportResult(added, skipped)


@dataclass(frozen=True)
class ImportResult:
    """What `import_json` did: rows added or updated per kind, and each skipped row with its reason."""

    added: dict[str, int]
    skipped: list[str]


def store_path(data_dir: Path | str | None = None) -> Path:
    """Where the progress database lives for `data_dir` (default: `cards.progress.paths.data_dir()`)."""
    if data_dir is None:
        data_dir = default_dir()
    return Path(data_dir) / DB_NAME


def open_store(data_dir: Path | str | None = None, **kwargs: Any) -> ProgressStore:
    """Open (creating or upgrading as needed) the progress store in the user's data folder."""
    return ProgressStore(store_path(data_dir), **kwargs)

"""Card ids that were renamed, and moving a store's rows from the old id to the new one.

A card's id is the key of its schedule state and of every review of it. Content changes sometimes
rename a card (an id that said where the card came from rather than what it asks); without this the
user's history of that card would be orphaned under the old id and the card would come back as new.
`renamed_cards.yaml` lists old -> new; `follow(db)` applies it inside the caller's transaction.
"""
from __future__ import annotations

import sqlite3
from functools import lru_cache
from pathlib import Path

import yaml

RENAMES_FILE = Path(__file__).with_name("renamed_cards.yaml")


@lru_cache(maxsize=1)
def renamed_cards() -> dict[str, str]:
    """old id -> current id, with chains (a -> b -> c) followed to their end."""
    raw = yaml.safe_load(RENAMES_FILE.read_text(encoding="utf-8")) or {}
    if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        raise ValueError(f"{RENAMES_FILE}: expected a mapping of old card id to new card id")
    out = {}
    for old in raw:
        new, seen = raw[old], {old}
        while new in raw:
            if new in seen:
                raise ValueError(f"{RENAMES_FILE}: the renames of {old!r} run in a circle")
            seen.add(new)
            new = raw[new]
        out[old] = new
    return out


def pending(db: sqlite3.Connection, renames: dict[str, str]) -> bool:
    """Whether any row still carries an old id (a cheap read, so most opens write nothing)."""
    if not renames:
        return False
    marks = ",".join("?" * len(renames))
    olds = tuple(renames)
    return any(db.execute(f"SELECT 1 FROM {table} WHERE card_id IN ({marks}) LIMIT 1", olds).fetchone()
               for table in ("card_state", "review_log"))


def follow(db: sqlite3.Connection, renames: dict[str, str]) -> int:
    """Move every old id's rows to its new id; returns how many rows moved. Where the new id already
    has a schedule state (reviewed after the rename), that state is kept and the old one dropped;
    every review moves either way."""
    moved = 0
    for old, new in renames.items():
        if db.execute("SELECT 1 FROM card_state WHERE card_id = ?", (new,)).fetchone():
            moved += db.execute("DELETE FROM card_state WHERE card_id = ?", (old,)).rowcount
        else:
            moved += db.execute("UPDATE card_state SET card_id = ? WHERE card_id = ?", (new, old)).rowcount
        moved += db.execute("UPDATE review_log SET card_id = ? WHERE card_id = ?", (new, old)).rowcount
    return moved

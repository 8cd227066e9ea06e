"""Benchmark: the review path at scale (10,000 cards, 1,000,000 review rows in a temp store).

Prints median and p95 of fetching the next due card (`Scheduler.next_card`) and of recording a
review (`Scheduler.review`: FSRS step plus one committed transaction), beside a baseline measured
in the same run: a trivial `SELECT 1` round trip on the same file and a one-row committed insert
into a scratch WAL file with the same settings. The target is a median under 5 ms for each.

Usage: .venv/bin/python bench/review_scale.py [--cards N] [--reviews N] [--samples N]
"""
from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.decks.loader import Card, Deck, DeckSet  # noqa: E402
from cards.progress.store import ProgressStore, utc_iso  # noqa: E402
from cards.schedule.scheduler import Scheduler  # noqa: E402

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=timezone.utc)


def synthetic_deckset(n_cards: int) -> DeckSet:
    decks = []
    per_deck = 500
    for d in range(0, n_cards, per_deck):
        deck_id = f"deck-{d // per_deck:03d}"
        cards = tuple(Card(id=f"card-{i:05d}", deck=deck_id, kind="qa", front=f"front {i}",
                           back=f"back {i}", source="bench")
                      for i in range(d, min(d + per_deck, n_cards)))
        decks.append(Deck(id=deck_id, title=deck_id, title_zh=None, description="", cards=cards))
    return DeckSet(decks=tuple(decks))


def fsrs_state(i: int, state: int, due: datetime, last: datetime, rng: random.Random) -> dict:
    return {"card_id": i, "state": state, "step": None if state == 2 else 0,
            "stability": round(rng.uniform(0.5, 200.0), 4), "difficulty": round(rng.uniform(1, 10), 4),
            "due": due.isoformat(), "last_review": last.isoformat()}


def populate(path: Path, deckset: DeckSet, n_reviews: int, seed: int = 0) -> None:
    """Fill the store directly with SQL (fast): every card reviewed, ~10% of them due now."""
    rng = random.Random(seed)
    ids = [c.id for c in deckset.cards]
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    states = []
    for i, cid in enumerate(ids):
        last = NOW - timedelta(days=rng.uniform(1, 60))
        due_now = rng.random() < 0.10
        due = NOW - timedelta(hours=rng.uniform(0, 48)) if due_now else NOW + timedelta(days=rng.uniform(1, 90))
        state = 3 if due_now and rng.random() < 0.2 else 2
        states.append((cid, json.dumps(fsrs_state(i, state, due, last, rng)), utc_iso(due), state, utc_iso(last)))
    db.executemany("INSERT INTO card_state VALUES (?, ?, ?, ?, ?)", states)
    sample = json.dumps(fsrs_state(0, 2, NOW, NOW - timedelta(days=3), rng))
    start = NOW - timedelta(days=400)
    step = timedelta(days=399) / n_reviews

    def rows():
        for k in range(n_reviews):
            yield (uuid.UUID(int=rng.getrandbits(128)).hex, ids[k % len(ids)], 1 + k % 4,
                   utc_iso(start + k * step), 4000, "user", sample if k >= len(ids) else None, sample)

    db.executemany("INSERT INTO review_log (uid, card_id, rating, reviewed_at, duration_ms, source, "
                   "state_before, state_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows())
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("ANALYZE")
    db.close()


def stats(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--reviews", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=500)
    args = parser.parse_args(argv)

    deckset = synthetic_deckset(args.cards)
    with tempfile.TemporaryDirectory(prefix="ppo-drill-bench-") as tmp:
        path = Path(tmp) / "progress.sqlite3"
        ProgressStore(path).close()  # schema
        t = time.perf_counter()
        populate(path, deckset, args.reviews)
        print(f"populated {args.cards:,} cards and {args.reviews:,} reviews in {time.perf_counter() - t:.1f} s "
              f"({path.stat().st_size / 2**20:.0f} MiB)")
        t = time.perf_counter()
        store = ProgressStore(path)
        print(f"open with quick_check: {(time.perf_counter() - t) * 1000:.0f} ms")
        clock_now = [NOW]
        sched = Scheduler(store, deckset, clock=lambda: clock_now[0], fuzz=False)
        raw = sqlite3.connect(path, isolation_level=None)
        scratch = sqlite3.connect(Path(tmp) / "baseline.sqlite3", isolation_level=None)
        scratch.execute("PRAGMA journal_mode = WAL")
        scratch.execute("PRAGMA synchronous = FULL")  # as the store
        scratch.execute("CREATE TABLE t (x INTEGER)")

        base_read, base_write, fetch, record = [], [], [], []
        sched.next_card()  # warm the caches once, as a session would
        for k in range(args.samples):
            t0 = time.perf_counter()
            raw.execute("SELECT 1").fetchone()
            t1 = time.perf_counter()
            scratch.execute("BEGIN IMMEDIATE")
            scratch.execute("INSERT INTO t VALUES (?)", (k,))
            scratch.execute("COMMIT")
            t2 = time.perf_counter()
            card = sched.next_card()
            t3 = time.perf_counter()
            assert card is not None, "ran out of due cards; lower --samples"
            sched.review(card.id, 3, duration_ms=1000)
            t4 = time.perf_counter()
            base_read.append(t1 - t0)
            base_write.append(t2 - t1)
            fetch.append(t3 - t2)
            record.append(t4 - t3)
            clock_now[0] += timedelta(seconds=5)
        raw.close()
        scratch.close()
        store.close()

    print(f"{'operation':<36}{'median ms':>10}{'p95 ms':>10}{'x baseline':>12}")
    rows = [("baseline: SELECT 1", base_read, base_read),
            ("baseline: 1-row insert + commit", base_write, base_write),
            ("next due card (next_card)", fetch, base_read),
            ("record a review (review)", record, base_write)]
    ok = True
    for name, samples, base in rows:
        med, p95 = stats(samples)
        ratio = med / stats(base)[0]
        print(f"{name:<36}{med:>10.3f}{p95:>10.3f}{ratio:>12.1f}")
        if not name.startswith("baseline") and med >= 5.0:
            ok = False
    print("target (median < 5 ms each):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

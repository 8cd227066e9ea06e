"""The progress store: refusal of corrupt / foreign / newer files (bytes untouched), migrations,
kill -9 during reviews, two writers at once, attempts / drills / mocks / settings, export and import."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from cards.decks.loader import load_decks
from cards.progress import store as store_mod
from cards.progress.store import SCHEMA_VERSION, ProgressStore, StoreError, open_store
from cards.schedule.scheduler import DrillSchedule, Scheduler

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)


def write_deck(folder: Path, ids: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["deck: d", "title: D", "cards:"]
    for cid in ids:
        lines += [f"  - id: {cid}", "    kind: qa", "    front: q", "    back: a", "    source: s"]
    (folder / "d.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def populated(path: Path, reviews: int = 40) -> None:
    ds = load_decks(write_deck(path.parent / "decks", [f"c{i}" for i in range(10)]), use_cache=False)
    with ProgressStore(path) as store:
        sched = Scheduler(store, ds, fuzz=False)
        for i in range(reviews):
            sched.review(f"c{i % 10}", 3, now=T0 + timedelta(minutes=i))


def test_open_store_uses_the_data_dir(_private_data_dir):
    with open_store() as store:
        assert store.path == _private_data_dir / "progress.sqlite3"
        assert store.schema_version == SCHEMA_VERSION
    assert (_private_data_dir / "progress.sqlite3").exists()


def test_not_a_database_is_refused_and_left_byte_for_byte(tmp_path):
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"my notes, not a database\n" * 100)
    before = digest(path)
    with pytest.raises(StoreError) as info:
        ProgressStore(path)
    assert str(path) in str(info.value) and "not an SQLite file" in str(info.value)
    assert "left untouched" in str(info.value)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.sqlite3"]


def test_damaged_database_is_refused_and_left_byte_for_byte(tmp_path):
    path = tmp_path / "progress.sqlite3"
    populated(path, reviews=200)
    assert not Path(str(path) + "-wal").exists()  # checkpointed on close
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    data[2 * page:4 * page] = b"\xab" * (2 * page)  # trash two b-tree pages
    path.write_bytes(bytes(data))
    before = digest(path)
    with pytest.raises(StoreError) as info:
        ProgressStore(path)
    assert str(path) in str(info.value) and "damaged" in str(info.value)
    assert digest(path) == before


def test_newer_schema_is_refused_and_left_byte_for_byte(tmp_path):
    path = tmp_path / "progress.sqlite3"
    populated(path, reviews=3)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    before = digest(path)
    with pytest.raises(StoreError, match="newer ppo-drill") as info:
        ProgressStore(path)
    assert str(path) in str(info.value) and "upgrade" in str(info.value)
    assert digest(path) == before


def test_foreign_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "progress.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (id INTEGER)")
    raw.commit()
    raw.close()
    before = digest(path)
    with pytest.raises(StoreError, match="another program"):
        ProgressStore(path)
    assert digest(path) == before


def test_empty_file_is_initialised(tmp_path):
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"")
    with ProgressStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION


def test_migrates_a_version_1_file_keeping_its_reviews(tmp_path):
    path = tmp_path / "progress.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("BEGIN")
    store_mod.MIGRATIONS[0](raw)
    raw.execute("PRAGMA user_version = 1")
    raw.execute(f"PRAGMA application_id = {store_mod.APPLICATION_ID}")
    state = {"card_id": 1, "state": 2, "step": None, "stability": 10.0, "difficulty": 5.0,
             "due": "2026-03-12T12:00:00+00:00", "last_review": "2026-03-02T12:00:00+00:00"}
    raw.execute("INSERT INTO review_log (uid, card_id, rating, reviewed_at, source, state_after) "
                "VALUES ('u1', 'c1', 4, '2026-03-02T12:00:00.000000+00:00', 'user', ?)", (json.dumps(state),))
    raw.execute("INSERT INTO card_state VALUES ('c1', ?, '2026-03-12T12:00:00.000000+00:00', 2, NULL)",
                (json.dumps(state),))
    raw.execute("COMMIT")
    raw.close()
    with pytest.raises(sqlite3.OperationalError):  # the v1 file has no drill tables yet
        sqlite3.connect(path).execute("SELECT * FROM drill_attempt")
    with ProgressStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 2
        assert [r.uid for r in store.reviews("c1")] == ["u1"]
    backup = sqlite3.connect(tmp_path / "progress.v1.backup.sqlite3")
    assert backup.execute("PRAGMA user_version").fetchone()[0] == 1
    assert backup.execute("SELECT uid FROM review_log").fetchall() == [("u1",)]
    backup.close()
    with ProgressStore(path) as store:
        assert store.card_state("c1") == state
        store.record_attempt("gae", framework="numpy", started_at=T0, passed=True)
        assert len(store.attempts("gae")) == 1


def test_a_failing_migration_leaves_the_old_version(tmp_path, monkeypatch):
    path = tmp_path / "progress.sqlite3"
    with ProgressStore(path):
        pass

    def broken(db):
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    monkeypatch.setattr(store_mod, "MIGRATIONS", store_mod.MIGRATIONS + (broken,))
    monkeypatch.setattr(store_mod, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(RuntimeError, match="boom"):
        ProgressStore(path)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert raw.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").fetchone()[0] == 0
    raw.close()


KILL_CHILD = textwrap.dedent("""
    import sys
    from cards.decks.loader import load_decks
    from cards.schedule.scheduler import Scheduler
    from cards.progress.store import ProgressStore
    ds = load_decks(sys.argv[1])
    sched = Scheduler(ProgressStore(sys.argv[2]), ds, fuzz=False)
    ids = [c.id for c in ds.cards]
    i = 0
    while True:
        out = sched.review(ids[i % len(ids)], 1 + i % 4, duration_ms=i)
        print(out.review_id, flush=True)  # printed only after the commit returned
        i += 1
""")


def child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_kill_9_during_reviews_loses_no_committed_review(tmp_path):
    decks = write_deck(tmp_path / "decks", [f"c{i}" for i in range(7)])
    path = tmp_path / "progress.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", KILL_CHILD, str(decks), str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
    reported = []
    try:
        while len(reported) < 60:
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            reported.append(int(line))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        rest = proc.stdout.read()  # drains what the text wrapper already buffered, then EOF
    finally:
        if proc.poll() is None:
            proc.kill()
    reported += [int(x) for x in rest.split()]
    assert proc.returncode == -signal.SIGKILL
    with ProgressStore(path) as store:
        assert store.integrity_ok()
        ids = [r.id for r in store.reviews()]
        assert set(reported) <= set(ids)
        assert len(ids) - len(reported) <= 1  # at most the review in flight when killed
        for cid in {r.card_id for r in store.reviews()}:
            assert store.card_state(cid) == store.reviews(cid)[-1].state_after


TWO_CHILD = textwrap.dedent("""
    import os, sys, time
    from cards.decks.loader import load_decks
    from cards.schedule.scheduler import Scheduler
    from cards.progress.store import ProgressStore
    ds = load_decks(sys.argv[1])
    sched = Scheduler(ProgressStore(sys.argv[2], timeout_s=30), ds, fuzz=False)
    print("ready", flush=True)
    while not os.path.exists(sys.argv[3]):
        time.sleep(0.001)
    ids = [c.id for c in ds.cards]
    for i in range(int(sys.argv[4])):
        sched.review(ids[i % len(ids)], 1 + (i * 7) % 4)
    print("done", flush=True)
""")


def test_two_processes_reviewing_at_once_lose_and_corrupt_nothing(tmp_path):
    decks = write_deck(tmp_path / "decks", ["c0", "c1", "c2"])
    path = tmp_path / "progress.sqlite3"
    go = tmp_path / "go"
    n = 80
    with ProgressStore(path):
        pass
    procs = [subprocess.Popen([sys.executable, "-c", TWO_CHILD, str(decks), str(path), str(go), str(n)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
             for _ in range(2)]
    try:
        for p in procs:
            assert p.stdout.readline().strip() == "ready", p.stderr.read()
        go.touch()
        outs = [p.communicate(timeout=60) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0 and out.strip() == "done", err
    with ProgressStore(path) as store:
        assert store.integrity_ok()
        reviews = store.reviews()
        assert len(reviews) == 2 * n
        for cid in ("c0", "c1", "c2"):
            chain = store.reviews(cid)
            # every review started from the state the previous one left: no lost update
            assert chain[0].state_before is None
            for prev, cur in zip(chain, chain[1:]):
                assert cur.state_before == prev.state_after
            assert store.card_state(cid) == chain[-1].state_after


def test_attempts_drills_mocks_settings(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        aid = store.record_attempt("gae-numpy", framework="numpy", started_at=T0,
                                   finished_at=T0 + timedelta(seconds=95), elapsed_s=95.0, passed=False,
                                   mistakes=["gae-forward-loop"], code="def gae(): ...", source="cli")
        store.record_attempt("policy-loss", framework="torch", started_at=T0, passed=True)
        (a,) = store.attempts("gae-numpy")
        assert (a.id, a.passed, a.mistakes, a.elapsed_s, a.source, a.finished_at) == (
            aid, False, ["gae-forward-loop"], 95.0, "cli", T0 + timedelta(seconds=95))
        assert [x.drill_id for x in store.attempts()] == ["gae-numpy", "policy-loss"]
        with pytest.raises(ValueError):
            store.record_attempt("x", framework="numpy", started_at=T0, passed=True, source="web")
        mid = store.record_mock(seed=7, started_at=T0, payload={"questions": ["q1"]})
        store.record_mock(seed=7, started_at=T0, payload={"questions": ["q1"], "score": 3},
                          finished_at=T0 + timedelta(minutes=30), mock_id=mid)
        (m,) = store.mocks()
        assert (m.id, m.seed, m.payload["score"], m.finished_at) == (mid, 7, 3, T0 + timedelta(minutes=30))
        assert store.get_setting("language", "en") == "en"
        store.set_setting("language", "zh")
        store.set_setting("new_per_day", 10)
        assert store.get_setting("language") == "zh" and store.settings() == {"language": "zh", "new_per_day": 10}


def test_naive_datetimes_are_rejected(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        with pytest.raises(ValueError, match="timezone-aware"):
            store.record_attempt("x", framework="numpy", started_at=datetime(2026, 1, 1), passed=True)


def fill(store: ProgressStore, tmp_path: Path, offset: timedelta = timedelta(0)) -> None:
    ds = load_decks(write_deck(tmp_path / "decks", ["c1", "c2", "c3"]), use_cache=False)
    sched = Scheduler(store, ds, fuzz=False)
    for i, cid in enumerate(["c1", "c2", "c1", "c3"]):
        sched.review(cid, 3, now=T0 + offset + timedelta(minutes=10 * i), duration_ms=500)
    sched.mark_again("c2", now=T0 + offset + timedelta(hours=1))
    store.record_attempt("gae", framework="numpy", started_at=T0 + offset, passed=True, mistakes=[])
    DrillSchedule(store, fuzz=False).record("gae", 3, now=T0 + offset)
    store.record_mock(seed=1, started_at=T0 + offset, payload={"n": 1})
    store.set_setting("language", "zh")


def strip(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "exported_at"}


def test_export_import_round_trip_is_idempotent(tmp_path):
    with ProgressStore(tmp_path / "a.sqlite3") as a, ProgressStore(tmp_path / "b.sqlite3") as b:
        fill(a, tmp_path)
        exported = json.loads(json.dumps(a.export_json()))
        assert exported["format"] == "ppo-drill-progress" and exported["version"] == 1
        assert len(exported["reviews"]) == 5
        result = b.import_json(exported)
        added = result.added
        assert added == {"card_states": 3, "reviews": 5, "drill_attempts": 1, "drill_states": 1,
                         "mocks": 1, "settings": 1, "drafts": 0}
        assert result.skipped == []
        assert strip(b.export_json()) == strip(exported)
        assert b.import_json(exported).added == dict.fromkeys(added, 0)
        assert strip(b.export_json()) == strip(exported)


def test_import_merges_with_local_progress_and_keeps_the_newer_state(tmp_path):
    with ProgressStore(tmp_path / "a.sqlite3") as a, ProgressStore(tmp_path / "b.sqlite3") as b:
        fill(a, tmp_path)
        fill(b, tmp_path, offset=timedelta(days=1))  # b studied the same cards a day later
        b_state = b.card_state("c1")
        b.import_json(a.export_json())
        assert len(b.reviews()) == 10 and len(b.attempts()) == 2 and len(b.mocks()) == 2
        assert b.card_state("c1") == b_state  # b's is newer
        a.import_json(b.export_json())
        assert a.card_state("c1") == b_state


def test_import_rejects_bad_documents_and_writes_nothing(tmp_path):
    with ProgressStore(tmp_path / "a.sqlite3") as a, ProgressStore(tmp_path / "b.sqlite3") as b:
        fill(a, tmp_path)
        good = a.export_json()
        with pytest.raises(ValueError, match="not a ppo-drill progress export"):
            b.import_json({"format": "anki"})
        with pytest.raises(ValueError, match="'version' is 99"):
            b.import_json({**good, "version": 99})
        with pytest.raises(ValueError, match="field 'reviews' must be a list"):
            b.import_json({**good, "reviews": {}})
        assert b.reviews() == [] and b.card_state("c1") is None


def test_import_skips_each_bad_row_with_its_reason_and_imports_the_rest(tmp_path):
    with ProgressStore(tmp_path / "a.sqlite3") as a, ProgressStore(tmp_path / "b.sqlite3") as b:
        fill(a, tmp_path)
        doc = json.loads(json.dumps(a.export_json()))
        doc["reviews"][0]["rating"] = 7
        doc["reviews"][1]["rating"] = "banana"
        doc["reviews"][2]["reviewed_at"] = "yesterday"
        attempt = doc["drill_attempts"][0]
        doc["drill_attempts"] += [{**attempt, "uid": "x1", "drill_id": "no-such-drill"},
                                  {**attempt, "uid": "x2", "elapsed_s": -50},
                                  {**attempt, "uid": "x3", "framework": "jax"},
                                  {**attempt, "uid": "x4", "passed": "yes"}]
        del doc["drill_attempts"][0]["drill_id"]
        doc["card_states"][0]["fsrs"] = {"due": "soon"}
        doc["mocks"].append("not a mock")
        result = b.import_json(doc, source_name="x.json")
        assert result.skipped == [
            "reviews[0]: field 'rating' must be a whole number from 1 to 4, got 7",
            "reviews[1]: field 'rating' must be a whole number from 1 to 4, got 'banana'",
            "reviews[2]: field 'reviewed_at' must be an ISO date-time, got 'yesterday'",
            "card_states[0]: field 'fsrs': field 'due' must be an ISO date-time, got 'soon'",
            "drill_attempts[0]: field 'drill_id' must be a non-empty string, got None",
            "drill_attempts[1]: unknown drill 'no-such-drill'",
            "drill_attempts[2]: field 'elapsed_s' must be a number from 0 to 604800, got -50",
            "drill_attempts[3]: field 'framework' must be one of 'numpy', 'torch', got 'jax'",
            "drill_attempts[4]: field 'passed' must be one of True, False, got 'yes'",
            "mocks[1]: must be an object, got str",
        ]
        assert result.added["reviews"] == 2 and result.added["drill_attempts"] == 0
        assert result.added["card_states"] == 2 and result.added["mocks"] == 1
        assert {r.rating for r in b.reviews()} <= {1, 2, 3, 4}


def test_stored_code_is_capped_and_says_so(tmp_path):
    from cards.progress.json_io import MAX_STORED_CODE

    big = "x = 1\n" * (MAX_STORED_CODE // 3)
    with ProgressStore(tmp_path / "a.sqlite3") as a, ProgressStore(tmp_path / "b.sqlite3") as b:
        a.record_attempt("gae", framework="numpy", started_at=T0, passed=True, code=big)
        [kept] = a.attempts()
        assert kept.code.startswith(big[:1000]) and len(kept.code) < MAX_STORED_CODE + 200
        assert f"kept the first {MAX_STORED_CODE:,} of {len(big):,} characters" in kept.code
        doc = a.export_json()
        doc["drill_attempts"].append({**doc["drill_attempts"][0], "uid": "other", "code": big})
        assert b.import_json(doc).skipped == []
        assert all(len(x.code) < MAX_STORED_CODE + 200 for x in b.attempts())


def test_a_locked_database_gives_a_store_error_and_keeps_earlier_writes(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path, timeout_s=0.05) as store:
        store.set_setting("language", "zh")
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        try:
            with pytest.raises(StoreError, match="cannot write to .*Nothing was lost"):
                store.set_setting("language", "en")
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert store.get_setting("language") == "zh"
        store.set_setting("language", "en")  # usable again once the lock is gone
        assert store.get_setting("language") == "en"


def test_a_folder_in_place_of_the_file_is_refused(tmp_path):
    (tmp_path / "progress.sqlite3").mkdir()
    with pytest.raises(StoreError, match="is a folder"):
        ProgressStore(tmp_path / "progress.sqlite3")


def test_threads_sharing_one_store_do_not_trip_over_each_others_transactions(tmp_path):
    import threading

    ds = load_decks(write_deck(tmp_path / "decks", ["c0", "c1"]), use_cache=False)
    errors: list[BaseException] = []
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        sched = Scheduler(store, ds, fuzz=False)

        def work(k: int) -> None:
            try:
                for i in range(25):
                    if k % 2:
                        store.record_attempt(f"d{k}", framework="numpy", started_at=T0, passed=True)
                    else:
                        sched.review(f"c{i % 2}", 3)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(store.attempts()) == 50 and len(store.reviews()) == 50
        for cid in ("c0", "c1"):
            chain = store.reviews(cid)
            assert all(cur.state_before == prev.state_after for prev, cur in zip(chain, chain[1:]))

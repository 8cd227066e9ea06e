"""A renamed card keeps its schedule state and its reviews, and a renamed drill everything of the user's
under its old id (attempts, schedule state, solve clock, previews, plan extras, mock records, saved
answers): in a store opened after the rename, a store that cannot be written, and an export made before it."""
from __future__ import annotations

from datetime import datetime, timezone

from cards.decks.loader import load_decks
from cards.progress import renames
from cards.progress.store import open_store

WHEN = datetime(2026, 12, 1, 10, tzinfo=timezone.utc)
STATE = {"card_id": 1, "state": 2, "step": None, "stability": 3.0, "difficulty": 5.0,
         "due": "2026-12-04T10:00:00+00:00", "last_review": "2026-12-01T10:00:00+00:00"}
OLD, NEW = "agg-chapter-modes", "agg-single-row-gradient-table"


def test_every_rename_ends_at_a_card_that_exists_and_no_old_id_is_a_card():
    ids = {card.id for deck in load_decks().decks for card in deck.cards}
    mapping = renames.renamed_cards()
    assert mapping, "the rename list is read"
    assert set(mapping.values()) <= ids
    assert not set(mapping) & ids


def test_a_store_opened_after_a_rename_moves_the_state_and_every_review(tmp_path):
    with open_store(tmp_path) as store:
        store.record_review(OLD, 3, WHEN, STATE, state_before=None)
        store.record_review(OLD, 4, WHEN, STATE, state_before=STATE)
        store.record_review("gae-purpose", 3, WHEN, STATE, state_before=None)
    with open_store(tmp_path) as store:
        assert store.card_state(OLD) is None and store.card_state(NEW) is not None
        assert [r.rating for r in store.reviews(NEW)] == [3, 4] and store.reviews(OLD) == []
        assert len(store.reviews("gae-purpose")) == 1  # other cards untouched


def test_where_the_new_id_was_reviewed_too_its_state_is_kept_and_both_histories_join(tmp_path):
    newer = {**STATE, "stability": 9.0}
    with open_store(tmp_path) as store:
        store.record_review(OLD, 3, WHEN, STATE, state_before=None)
    with open_store(tmp_path) as store:  # renamed now
        store.record_review(NEW, 4, WHEN, newer, state_before=STATE)
        store.record_review(OLD, 2, WHEN, STATE, state_before=None)  # e.g. an older version still running
    with open_store(tmp_path) as store:
        assert store.card_state(NEW)["stability"] == 9.0 and store.card_state(OLD) is None
        assert sorted(r.rating for r in store.reviews(NEW)) == [2, 3, 4]


def test_an_export_made_before_the_rename_imports_under_the_new_id(tmp_path):
    with open_store(tmp_path / "a") as store:
        store.record_review("gae-purpose", 3, WHEN, STATE, state_before=None)
        data = store.export_json(drafts=False)
    for row in data["card_states"]:
        row["card_id"] = OLD
    for row in data["reviews"]:
        row["card_id"] = OLD
    with open_store(tmp_path / "b") as store:
        store.import_json(data, drafts=False, known_drills=set())
        assert store.card_state(NEW) is not None and store.card_state(OLD) is None
        assert len(store.reviews(NEW)) == 1


# -- drills ------------------------------------------------------------------------------------------
#
# A progress folder written while the core drills' ids were snake_case (policy_loss): its attempts,
# drill states, solve clocks, previews, plan extras, mock records and saved answers all name the old ids.

OLD_DRILL, NEW_DRILL = "policy_loss", "policy-loss"
OLD_CODE = "# my policy loss, typed before the rename\n"


def _old_mock_payload() -> dict:
    """A finished mock record as the app wrote it: a drill item, a question following it up, the drill's
    last report and the scorecard, all naming the drill by its old id."""
    from cards.plan.mock_plan import MockItem, MockPlan
    from cards.plan.mock_session import MockSession

    plan = MockPlan(7, 30, (MockItem(0, "drill", OLD_DRILL, "PPO clipped policy loss", "policy-loss", 600,
                                     "numpy", "easy", 6),
                            MockItem(1, "question", "ppo-probe-loss", "A probe", "policy-loss", 90,
                                     drill=OLD_DRILL)))
    payload = MockSession(plan, store=None, clock=lambda: WHEN, started_at=WHEN).payload()
    payload["results"][0]["last_report"] = {"drill": OLD_DRILL, "framework": "numpy", "passed": False}
    payload["scorecard"] = {"items": [{"kind": "drill", "ref": OLD_DRILL}, {"kind": "question",
                                                                            "ref": "ppo-probe-loss"}]}
    return payload


def _old_progress(folder) -> str:
    """Write an old progress folder into `folder`: rows through the store (the schema is the one the old
    version wrote), then the saved answers' files; returns the mock record's id."""
    from cards.plan.mock_session import answer_root
    from cards.progress import drafts

    with open_store(folder) as store:
        store.record_attempt(OLD_DRILL, framework="numpy", started_at=WHEN, passed=False, mistakes=["ratio-inverted"],
                             code=OLD_CODE, source="cli")
        store.record_attempt(OLD_DRILL, framework="numpy", started_at=WHEN, passed=True, elapsed_s=300.0)
        store.record_attempt("gae", framework="numpy", started_at=WHEN, passed=True)
        store.set_drill_state(OLD_DRILL, STATE)
        store.set_setting("cli_clocks", {"value_loss": {"elapsed_s": 30.0, "last": "2026-12-01T10:00:00+00:00"}})
        store.set_setting("preview_log", [{"kind": "drill", "ref": "token_kl", "at": "2026-12-01T10:00:00+00:00",
                                           "passed": True}, {"kind": "card", "ref": "gae-purpose",
                                                             "at": "2026-12-01T10:00:00+00:00", "rating": 3}])
        store.set_setting("plan_extra", {"day": "2026-12-01", "at": None, "cards": [], "drills": [OLD_DRILL, "gae"]})
        mock_id = store.record_mock(seed=7, started_at=WHEN, finished_at=WHEN, payload=_old_mock_payload())
    drafts.save_draft(OLD_DRILL, "numpy", OLD_CODE, folder)
    drafts.save_clock(OLD_DRILL, 42.0, folder)
    drafts.save_draft("kl_reward", "torch", "# practising ahead\n", drafts.practice_root(folder))
    drafts.save_draft(OLD_DRILL, "numpy", "# in the mock\n", answer_root(mock_id, folder))
    return mock_id


def _assert_under_the_new_ids(store, mock_id: str) -> None:
    from cards.plan.mock_session import MockSession
    from cards.plan.progress_summary import PASSED, drill_statuses

    attempts = store.attempts(NEW_DRILL)
    assert [(a.passed, a.mistakes, a.code) for a in attempts] == [(False, ["ratio-inverted"], OLD_CODE), (True, [], "")]
    assert store.attempts(OLD_DRILL) == [] and len(store.attempts("gae")) == 1
    assert drill_statuses(store, [NEW_DRILL])[NEW_DRILL].status == PASSED
    assert store.drill_state(NEW_DRILL) == STATE and store.drill_state(OLD_DRILL) is None
    assert set(store.drill_states()) == {NEW_DRILL}
    assert set(store.get_setting("cli_clocks")) == {"value-loss"}
    assert [e["ref"] for e in store.get_setting("preview_log")] == ["token-kl", "gae-purpose"]
    assert store.get_setting("plan_extra")["drills"] == [NEW_DRILL, "gae"]
    payload = next(m.payload for m in store.mocks() if m.id == mock_id)
    assert [i["ref"] for i in payload["scorecard"]["items"]] == [NEW_DRILL, "ppo-probe-loss"]
    session = MockSession.load(store, mock_id, clock=lambda: WHEN)
    drill, question = session.plan.items
    assert (drill.ref, question.ref, question.drill) == (NEW_DRILL, "ppo-probe-loss", NEW_DRILL)
    assert session.results[0].last_report["drill"] == NEW_DRILL


def test_every_drill_rename_ends_at_a_drill_that_exists_and_no_old_id_is_a_drill():
    from drills import load_drills

    ids = {d.id for d in load_drills()}
    mapping = renames.renamed_drills()
    assert mapping[OLD_DRILL] == NEW_DRILL and mapping["policy_loss_full"] == "policy-loss-full"
    assert set(mapping.values()) <= ids
    assert not set(mapping) & ids


def test_an_old_progress_folder_opened_after_the_rename_shows_everything_under_the_new_ids(tmp_path):
    from cards.plan.mock_session import answer_root
    from cards.progress import drafts

    mock_id = _old_progress(tmp_path)
    with open_store(tmp_path) as store:
        _assert_under_the_new_ids(store, mock_id)
    assert drafts.load_draft(NEW_DRILL, "numpy", tmp_path) == OLD_CODE
    assert drafts.load_clock(NEW_DRILL, tmp_path) == 42.0
    assert drafts.load_draft("kl-reward", "torch", drafts.practice_root(tmp_path)) == "# practising ahead\n"
    assert drafts.load_draft(NEW_DRILL, "numpy", answer_root(mock_id, tmp_path)) == "# in the mock\n"
    assert not list(tmp_path.glob(f"**/answers/{OLD_DRILL}")) and not list(tmp_path.glob("**/answers/kl_reward"))
    with open_store(tmp_path) as store:  # once moved, an open finds nothing to move and writes nothing
        before = store.change_token()
        assert not renames.drills_pending(store._db, renames.renamed_drills())
        _assert_under_the_new_ids(store, mock_id)
        assert store.change_token() == before


def test_a_read_only_store_reads_an_old_file_under_the_new_ids_and_leaves_it_as_it_was(tmp_path, monkeypatch):
    import hashlib

    from cards.progress import store as store_module
    from cards.progress.store import ProgressStore, store_path

    mock_id = _old_progress(tmp_path)
    path = store_path(tmp_path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    monkeypatch.setattr(store_module, "_on_read_only_file_system", lambda folder: True)
    with ProgressStore(path) as store:
        assert store.read_only
        _assert_under_the_new_ids(store, mock_id)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert (tmp_path / "answers" / OLD_DRILL / "numpy.py").read_text() == OLD_CODE  # nothing moved


def test_an_export_made_before_the_drill_rename_imports_under_the_new_ids(tmp_path):
    import sqlite3

    from cards.progress import drafts, json_io
    from cards.progress.store import store_path

    mock_id = _old_progress(tmp_path / "old")
    db = sqlite3.connect(store_path(tmp_path / "old"))  # exported as the old version did: nothing renamed
    data = json_io.export_data(db)
    db.close()
    data["drafts"], data["drafts_left_out"] = json_io.export_drafts(tmp_path / "old")
    assert {a["drill_id"] for a in data["drill_attempts"]} == {OLD_DRILL, "gae"}
    with open_store(tmp_path / "new") as store:
        result = store.import_json(data)
        assert result.skipped == []
        _assert_under_the_new_ids(store, mock_id)
    assert drafts.load_draft(NEW_DRILL, "numpy", tmp_path / "new") == OLD_CODE


def test_where_the_new_drill_id_was_scheduled_too_its_state_is_kept_and_the_attempts_join(tmp_path):
    newer = {**STATE, "stability": 9.0}
    with open_store(tmp_path) as store:  # an older version still running writes the old id after the rename
        store.set_drill_state(NEW_DRILL, newer)
        store.record_attempt(NEW_DRILL, framework="torch", started_at=WHEN, passed=True)
        store.set_drill_state(OLD_DRILL, STATE)
        store.record_attempt(OLD_DRILL, framework="numpy", started_at=WHEN, passed=False)
        store.set_setting("cli_clocks", {OLD_DRILL: {"elapsed_s": 1.0}, NEW_DRILL: {"elapsed_s": 2.0}})
    with open_store(tmp_path) as store:
        assert store.drill_state(NEW_DRILL)["stability"] == 9.0 and store.drill_state(OLD_DRILL) is None
        assert sorted(a.framework for a in store.attempts(NEW_DRILL)) == ["numpy", "torch"]
        assert store.get_setting("cli_clocks") == {NEW_DRILL: {"elapsed_s": 2.0}}


def test_saved_answers_where_the_new_id_has_one_too_keep_it_and_lose_nothing(tmp_path):
    from cards.progress import drafts

    drafts.save_draft(OLD_DRILL, "numpy", "# old numpy\n", tmp_path)
    drafts.save_draft(OLD_DRILL, "torch", "# old torch\n", tmp_path)
    drafts.save_draft(NEW_DRILL, "numpy", "# new numpy\n", tmp_path)  # saved after the rename: the newer work
    assert drafts.follow_renames(tmp_path, renames.renamed_drills()) == 1
    assert drafts.load_draft(NEW_DRILL, "numpy", tmp_path) == "# new numpy\n"
    assert drafts.load_draft(NEW_DRILL, "torch", tmp_path) == "# old torch\n"
    assert (tmp_path / "answers" / OLD_DRILL / "numpy.py").read_text() == "# old numpy\n"  # kept where it was


def test_values_not_shaped_as_the_app_writes_them_are_left_as_they_are(tmp_path):
    """A damaged or hand-edited value that names an old drill id never stops the store from opening: what
    can be renamed is, the rest stays as it was, for the reads that name it."""
    import json
    import sqlite3

    from cards.progress.store import store_path

    with open_store(tmp_path) as store:
        store.set_setting("plan_extra", {"day": "2026-12-01", "drills": [[OLD_DRILL], OLD_DRILL]})
        store.set_setting("preview_log", "not a log")
        store.record_mock(seed=1, started_at=WHEN, payload={"plan": {"items": "nothing"}, "results": [3]},
                          mock_id="odd")
        store.record_mock(seed=2, started_at=WHEN, payload={}, mock_id="broken")
        store.record_attempt(OLD_DRILL, framework="numpy", started_at=WHEN, passed=False)
    db = sqlite3.connect(store_path(tmp_path))
    with db:
        db.execute("UPDATE mock_session SET payload = ? WHERE id = 'broken'", ('{"plan": [' + OLD_DRILL,))
    db.close()
    with open_store(tmp_path) as store:
        assert len(store.attempts(NEW_DRILL)) == 1

        def raw(sql: str) -> str:
            return store._db.execute(sql).fetchone()[0]

        extra = json.loads(raw("SELECT value FROM setting WHERE key = 'plan_extra'"))
        assert extra["drills"] == [[OLD_DRILL], NEW_DRILL]
        assert json.loads(raw("SELECT value FROM setting WHERE key = 'preview_log'")) == "not a log"
        assert json.loads(raw("SELECT payload FROM mock_session WHERE id = 'odd'")) == {"plan": {"items": "nothing"},
                                                                                         "results": [3]}
        assert raw("SELECT payload FROM mock_session WHERE id = 'broken'") == '{"plan": [' + OLD_DRILL

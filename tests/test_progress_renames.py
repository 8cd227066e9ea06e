"""A renamed card keeps its schedule state and its reviews: in a store opened after the rename, and in
an export made before it."""
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

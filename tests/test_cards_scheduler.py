"""The FSRS scheduler: equivalence with the fsrs package, Anki queue order, new-card limit, preview,
undo, counts, edits and deletions of cards, the checker's Again, drill scheduling, interval text."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import fsrs
import pytest

from cards.decks.loader import load_decks
from cards.progress.store import ProgressStore
from cards.schedule.intervals import format_interval
from cards.schedule.scheduler import DeckCounts, DrillSchedule, Scheduler

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)


def write_decks(folder: Path, decks: dict[str, list[str]], front: str = "Q") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, ids in decks.items():
        lines = [f"deck: {name}", f"title: Deck {name}", "cards:"]
        for cid in ids:
            lines += [f"  - id: {cid}", "    kind: qa", f"    front: \"{front} {cid}\"",
                      f"    back: \"A {cid}\"", "    source: fixture"]
        (folder / f"{name}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def store(tmp_path):
    with ProgressStore(tmp_path / "progress.sqlite3") as s:
        yield s


def make(store, tmp_path, decks, clock=None, **kw):
    ds = load_decks(write_decks(tmp_path / "decks", decks), use_cache=False)
    assert ds.errors == ()
    return Scheduler(store, ds, clock=clock or Clock(T0), fuzz=False, **kw)


def test_intervals_equal_the_fsrs_package_with_fuzz_off(store, tmp_path):
    sched = make(store, tmp_path, {"d": ["c1"]})
    ref = fsrs.Scheduler(enable_fuzzing=False)
    ref_card = fsrs.Card(card_id=1, due=T0)
    now = T0
    ratings = [3, 3, 3, 1, 3, 3, 4, 2, 3]
    intervals = []
    for i, rating in enumerate(ratings):
        outcome = sched.review("c1", rating, now=now, duration_ms=1000 + i)
        ref_card, _ = ref.review_card(ref_card, fsrs.Rating(rating), now)
        assert outcome.due == ref_card.due
        state = store.card_state("c1")
        assert (state["stability"], state["difficulty"], state["state"], state["step"]) == (
            ref_card.stability, ref_card.difficulty, int(ref_card.state), ref_card.step)
        intervals.append(outcome.due - now)
        now = outcome.due + timedelta(hours=1)  # review an hour after it fell due
    assert max(intervals) > timedelta(days=5)  # the sequence reaches real review intervals
    assert [r.rating for r in store.reviews("c1")] == ratings
    assert [r.duration_ms for r in store.reviews("c1")] == [1000 + i for i in range(len(ratings))]


def test_fuzz_on_stays_near_the_unfuzzed_interval(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        ds = load_decks(write_decks(tmp_path / "decks", {"d": ["c1"]}), use_cache=False)
        sched = Scheduler(store, ds, clock=Clock(T0), fuzz=True)
        out = sched.review("c1", 4, now=T0)  # Easy on a new card goes straight to Review
        plain = sched.preview("c1", T0)  # previews are unfuzzed; state is now Review
        assert out.state == int(fsrs.State.Review)
        assert timedelta(days=1) <= out.due - T0 <= timedelta(days=30)
        assert set(plain) == {1, 2, 3, 4}


def test_the_range_a_button_shows_holds_every_fuzzed_review(tmp_path):
    """A button says "Easy · 6-11d" when fuzzing is on: every fuzzed outcome lands in that range, and
    the range is not wider than what fuzzing produces."""
    import random

    from cards.schedule.intervals import format_preview, fuzz_range_days

    random.seed(1234)
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        ds = load_decks(write_decks(tmp_path / "decks", {"d": ["c1"]}), use_cache=False)
        sched = Scheduler(store, ds, clock=Clock(T0), fuzz=True)
        first = sched.review("c1", 4, now=T0)
        now = first.due + timedelta(days=1)
        preview = sched.preview("c1", now)
        token = store.card_state("c1")
        for rating in (2, 3, 4):
            unfuzzed = (preview[rating] - now).days
            low, high = fuzz_range_days(unfuzzed)
            shown = format_preview(preview[rating] - now)
            lo_text, hi_text = format_interval(timedelta(days=low)), format_interval(timedelta(days=high))
            assert low < high
            if high < 30:
                assert shown == f"{low}-{high}d"
            elif lo_text == hi_text:  # both ends round to the same month figure
                assert shown == f"~{hi_text}"
            else:  # "1.7-2.2mo": both ends, the unit once
                unit = hi_text.lstrip("0123456789.")
                assert shown == f"{lo_text.removesuffix(unit)}-{hi_text}", (shown, low, high)
            seen = set()
            for _ in range(200):
                out = sched.review("c1", rating, now=now)
                seen.add((out.due - now).days)
                sched.undo_last()
                assert store.card_state("c1") == token
            assert seen <= set(range(low, high + 1)), (rating, seen, (low, high))
            assert min(seen) == low and max(seen) >= high - 1
    assert format_preview(timedelta(hours=10)) == "10h"  # short intervals are never fuzzed
    assert format_preview(timedelta(days=8), fuzz=False) == "8d"


def test_queue_order_learning_then_reviews_then_new_within_allowance(store, tmp_path):
    clock = Clock(T0)
    sched = make(store, tmp_path, {"a": ["a1", "a2", "a3", "a4"], "b": ["b1", "b2", "b3", "gone"]},
                 clock=clock, new_per_day=3)
    sched.review("a2", 4, now=T0 - timedelta(days=30))  # review card, due long ago
    sched.review("b1", 4, now=T0 - timedelta(days=20))  # review card, due later than a2
    sched.review("b3", 4, now=T0 - timedelta(days=1))   # review card, not due yet
    sched.review("b2", 1, now=T0 - timedelta(minutes=5))  # learning, due T0-4m
    sched.review("a4", 1, now=T0 - timedelta(minutes=3))  # learning, due T0-2m
    sched.review("a3", 3, now=T0 - timedelta(minutes=1))  # learning, due T0+9m: not due
    sched.review("gone", 1, now=T0 - timedelta(minutes=30))  # will be deleted from its deck
    ds = load_decks(write_decks(tmp_path / "decks", {"a": ["a1", "a2", "a3", "a4"],
                                                     "b": ["b1", "b2", "b3"]}), use_cache=False)
    sched = Scheduler(store, ds, clock=clock, fuzz=False, new_per_day=4)
    # four first reviews happened today (b2, a4, a3, gone): allowance 4 - 4 = 0
    assert [c.id for c in sched.queue()] == ["b2", "a4", "a2", "b1"]
    sched.new_per_day = 5
    assert [c.id for c in sched.queue()] == ["b2", "a4", "a2", "b1", "a1"]
    assert sched.next_card().id == "b2"
    assert [c.id for c in sched.queue(deck="a")] == ["a4", "a2", "a1"]
    assert sched.next_card(deck="b").id == "b2"


def test_new_per_day_limit_resets_at_utc_midnight(store, tmp_path):
    clock = Clock(datetime(2026, 3, 2, 23, 0, tzinfo=timezone.utc))
    sched = make(store, tmp_path, {"d": [f"c{i}" for i in range(6)]}, clock=clock, new_per_day=2)
    assert [c.id for c in sched.queue()] == ["c0", "c1"]
    sched.review("c0", 4)
    sched.review("c1", 4)
    assert sched.queue() == [] and sched.next_card() is None
    assert sched.new_remaining() == 0
    clock.now = datetime(2026, 3, 2, 23, 59, 59, tzinfo=timezone.utc)
    assert sched.next_card() is None
    clock.now = datetime(2026, 3, 3, 0, 0, tzinfo=timezone.utc)
    assert [c.id for c in sched.queue()] == ["c2", "c3"]


def test_learn_ahead_offers_soon_due_learning_cards_only_when_nothing_else(store, tmp_path):
    clock = Clock(T0)
    sched = make(store, tmp_path, {"d": ["c1"]}, clock=clock)
    sched.review("c1", 3)  # learning, due in 10 minutes
    assert [c.id for c in sched.queue()] == ["c1"]  # within the 20-minute learn-ahead limit
    sched.review("c1", 4)  # graduates to review, due in days
    assert sched.queue() == [] and sched.next_card() is None


def test_preview_matches_what_each_rating_does_and_writes_nothing(store, tmp_path):
    sched = make(store, tmp_path, {"d": ["c1"]})
    sched.review("c1", 4, now=T0 - timedelta(days=10))
    before = store.card_state("c1")
    preview = sched.preview("c1", T0)
    assert store.card_state("c1") == before and len(store.reviews()) == 1
    for rating in (1, 2, 3, 4):
        outcome = sched.review("c1", rating, now=T0)
        assert outcome.due == preview[rating]
        assert sched.undo_last() == "c1"
    assert preview[1] < preview[2] < preview[3] < preview[4]
    new = make(store, tmp_path, {"d": ["c1", "c2"]}).preview("c2", T0)
    assert {r: format_interval(d - T0) for r, d in new.items()} == {1: "1m", 2: "6m", 3: "10m", 4: "8d"}


def test_undo_restores_exact_prior_states_in_order(store, tmp_path):
    sched = make(store, tmp_path, {"d": ["c1", "c2"]})
    sched.review("c1", 3, now=T0)
    after_first = store.card_state("c1")
    sched.review("c1", 3, now=T0 + timedelta(minutes=10))
    sched.review("c2", 1, now=T0 + timedelta(minutes=11))
    assert sched.undo_last() == "c2"
    assert store.card_state("c2") is None  # new again
    assert sched.undo_last() == "c1"
    assert store.card_state("c1") == after_first
    assert [r.rating for r in store.reviews()] == [3]
    assert sched.undo_last() == "c1"
    assert store.card_state("c1") is None and store.reviews() == []
    assert sched.undo_last() is None
    assert [c.id for c in sched.queue(T0)] == ["c1", "c2"]  # the new-card allowance is given back


def test_undo_refuses_a_review_that_is_no_longer_the_latest(store, tmp_path):
    mine = make(store, tmp_path, {"d": ["c1"]})
    other = make(store, tmp_path, {"d": ["c1"]})  # e.g. another window on the same store
    mine.review("c1", 3, now=T0)
    other.review("c1", 3, now=T0 + timedelta(minutes=10))
    latest = store.card_state("c1")
    assert mine.undo_last() is None
    assert store.card_state("c1") == latest and len(store.reviews()) == 2


def test_rejects_bad_rating_and_unknown_card(store, tmp_path):
    sched = make(store, tmp_path, {"d": ["c1"]})
    with pytest.raises(ValueError, match="rating must be"):
        sched.review("c1", 5)
    with pytest.raises(KeyError, match="nope"):
        sched.review("nope", 3)
    assert store.reviews() == []


def test_mark_again_is_logged_with_its_source(store, tmp_path):
    sched = make(store, tmp_path, {"d": ["c1"]})
    sched.review("c1", 4, now=T0 - timedelta(days=10))
    out = sched.mark_again("c1", now=T0)
    assert out.rating == 1 and out.state == int(fsrs.State.Relearning)
    assert [(r.rating, r.source) for r in store.reviews("c1")] == [(4, "user"), (1, "checker")]
    assert sched.next_card(T0 + timedelta(minutes=10)).id == "c1"


def test_editing_text_keeps_progress_and_deleting_keeps_history(store, tmp_path):
    sched = make(store, tmp_path, {"d": ["c1", "c2"]})
    sched.review("c1", 4, now=T0)
    sched.review("c2", 4, now=T0 + timedelta(days=2))  # falls due after c1
    state = store.card_state("c1")
    edited = load_decks(write_decks(tmp_path / "decks", {"d": ["c1", "c2"]}, front="Reworded"),
                        use_cache=False)
    assert edited.by_id["c1"].front == "Reworded c1"
    sched = Scheduler(store, edited, clock=Clock(T0), fuzz=False)
    assert store.card_state("c1") == state
    assert sched.counts()["d"] == DeckCounts(new=0, learning=0, review=0, unseen=0, total=2)
    assert sched.next_card(state_due := datetime.fromisoformat(state["due"])).id == "c1"
    deleted = load_decks(write_decks(tmp_path / "decks", {"d": ["c2"]}), use_cache=False)
    sched = Scheduler(store, deleted, clock=Clock(T0), fuzz=False)
    assert [c.id for c in sched.queue(state_due)] == []  # c2 is not due, c1 is gone from the deck
    assert [r.rating for r in store.reviews("c1")] == [4] and store.card_state("c1") == state
    restored = load_decks(write_decks(tmp_path / "decks", {"d": ["c1", "c2"]}), use_cache=False)
    sched = Scheduler(store, restored, clock=Clock(T0), fuzz=False)
    assert [c.id for c in sched.queue(state_due)] == ["c1"]  # back with its schedule


def test_counts_per_deck(store, tmp_path):
    sched = make(store, tmp_path, {"a": ["a1", "a2", "a3"], "b": ["b1", "b2"]}, new_per_day=3)
    sched.review("a1", 1, now=T0 - timedelta(minutes=5))
    sched.review("b1", 4, now=T0 - timedelta(days=30))
    counts = sched.counts(T0)
    assert list(counts) == ["a", "b"]
    assert counts["a"] == DeckCounts(new=2, learning=1, review=0, unseen=2, total=3)
    assert counts["b"] == DeckCounts(new=1, learning=0, review=1, unseen=1, total=2)
    assert sched.new_remaining(T0) == 2


def test_drill_schedule_uses_fsrs_over_drill_ids(store):
    drills = DrillSchedule(store, clock=Clock(T0), fuzz=False)
    ref = fsrs.Scheduler(enable_fuzzing=False)
    due = drills.record("gae-numpy", 3)
    ref_card, _ = ref.review_card(fsrs.Card(card_id=1, due=T0), fsrs.Rating.Good, T0)
    assert due == ref_card.due
    drills.record("policy-loss", 4, now=T0 - timedelta(days=30))
    assert drills.due(T0) == ["policy-loss"]
    assert drills.due(T0 + timedelta(minutes=10)) == ["policy-loss", "gae-numpy"]
    assert drills.due(T0, drill_ids=["value-loss", "gae-numpy", "policy-loss"]) == ["policy-loss", "value-loss"]
    assert store.drill_state("gae-numpy")["state"] == int(fsrs.State.Learning)
    with pytest.raises(ValueError):
        drills.record("x", 0)


@pytest.mark.parametrize("delta, text", [
    (timedelta(seconds=30), "<1m"), (timedelta(minutes=1), "1m"), (timedelta(minutes=10), "10m"),
    (timedelta(hours=1), "1h"), (timedelta(hours=1, minutes=30), "1.5h"), (timedelta(days=1), "1d"),
    (timedelta(days=29), "29d"), (timedelta(days=96), "3.2mo"), (timedelta(days=400), "1.1y"),
    (timedelta(days=-1), "<1m"),
])
def test_format_interval(delta, text):
    assert format_interval(delta) == text


def test_a_second_connection_sees_the_first_ones_reviews(tmp_path):
    path = tmp_path / "shared.sqlite3"
    with ProgressStore(path) as one, ProgressStore(path) as two:
        first = make(one, tmp_path, {"d": ["c1", "c2", "c3"]})
        second = make(two, tmp_path, {"d": ["c1", "c2", "c3"]})
        assert [c.id for c in first.queue(T0)] == ["c1", "c2", "c3"]  # caches c1-c3 as new
        first.review("c1", 4, now=T0)
        assert [c.id for c in first.queue(T0)] == ["c2", "c3"]
        second.review("c2", 4, now=T0)  # committed through the other connection
        assert [c.id for c in first.queue(T0)] == ["c3"]
        assert first.undo_last() == "c1"
        assert [c.id for c in first.queue(T0)] == ["c1", "c3"]


def test_new_per_day_defaults_to_the_users_setting(store, tmp_path):
    assert make(store, tmp_path, {"d": ["c1"]}).new_per_day == 20
    store.set_setting("new_per_day", 5)
    assert make(store, tmp_path, {"d": ["c1"]}).new_per_day == 5
    assert make(store, tmp_path, {"d": ["c1"]}, new_per_day=7).new_per_day == 7


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_steps = st.lists(st.tuples(st.integers(0, 5), st.integers(1, 4), st.integers(0, 3 * 24 * 60)),
                  min_size=1, max_size=25)


@settings(max_examples=25)
@given(steps=_steps, probe=st.integers(0, 40 * 24 * 60), new_per_day=st.integers(0, 4))
def test_next_card_is_the_head_of_the_queue_and_the_queue_is_well_ordered(tmp_path_factory, steps, probe,
                                                                          new_per_day):
    folder = tmp_path_factory.mktemp("prop")
    ids = [f"c{i}" for i in range(6)]
    with ProgressStore(folder / "p.sqlite3") as store:
        ds = load_decks(write_decks(folder / "decks", {"a": ids[:3], "b": ids[3:]}), use_cache=False)
        sched = Scheduler(store, ds, clock=Clock(T0), fuzz=False, new_per_day=new_per_day)
        now = T0
        for card, rating, minutes in sorted(steps, key=lambda s: s[2]):
            now = T0 + timedelta(minutes=minutes)
            sched.review(ids[card], rating, now=now)
        at = now + timedelta(minutes=probe)
        queue = sched.queue(at)
        head = sched.next_card(at)
        assert head == (queue[0] if queue else None)
        assert len({c.id for c in queue}) == len(queue)
        states = store.card_states()
        kinds = ["learn" if c.id in states and states[c.id][1] != 2 else "review" if c.id in states else "new"
                 for c in queue]
        if queue and any(states.get(c.id, (at,))[0] <= at or c.id not in states for c in queue):
            order = {"learn": 0, "review": 1, "new": 2}
            assert [order[k] for k in kinds] == sorted(order[k] for k in kinds)
            for kind in ("learn", "review"):
                dues = [states[c.id][0] for c, k in zip(queue, kinds) if k == kind]
                assert dues == sorted(dues) and all(d <= at for d in dues)
            new_ids = [c.id for c, k in zip(queue, kinds) if k == "new"]
            assert new_ids == [i for i in ids if i not in states][:len(new_ids)]
            assert len(new_ids) <= sched.new_remaining(at)

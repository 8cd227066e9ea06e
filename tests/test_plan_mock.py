"""Mock interviews: composition from a seed, timer accounting with pauses, scorecard values,
persistence across a crash, and the loop into the card and drill schedules."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from cards.decks.loader import load_decks
from cards.plan.followups import load_followups, ranked_followups, stated_cards
from cards.plan.mock import (RUBRIC, MockPlan, MockSession, MockStateError, format_plan, format_scorecard,
                             plan_mock, resume_mock, score_session, start_mock, time_factor, unfinished_mocks)
from cards.progress.store import open_store
from drills import load_drills

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


class FakeClock:
    """A clock advanced by hand."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "data") as s:
        yield s


# -- composition ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_plan_composition(seed):
    plan = plan_mock(seed, 45)
    drills = {d.id: d for d in load_drills()}
    deckset = load_decks()
    assert 2 <= len(plan.drills) <= 3
    assert any(drills[i.ref].difficulty != "easy" for i in plan.drills), "never all easy"
    assert 6 <= len(plan.questions) <= 10
    assert len({i.ref for i in plan.questions}) == len(plan.questions), "no question twice"
    assert sum(i.budget_s for i in plan.items) == 45 * 60
    assert [i.index for i in plan.items] == list(range(len(plan.items)))
    assert plan.items[0].kind == "drill"
    for item in plan.drills:
        assert item.framework in drills[item.ref].frameworks
        assert item.target_minutes == drills[item.ref].target_minutes
    what_ifs = [q for q in plan.questions if "what-if" in deckset.by_id[q.ref].tags]
    assert len(what_ifs) == 1, "one 'what would you change if' question per mock"
    in_plan = [drills[d.ref] for d in plan.drills]
    for q in plan.questions:
        assert q.drill in {d.ref for d in plan.drills}
        drill = drills[q.drill]
        for d in in_plan:  # never a card a drill of this mock states or exercises
            assert q.ref not in stated_cards(d, deckset), f"{q.ref} is answered by {d.id}"
        if q not in what_ifs:
            near = {c for d in in_plan for _, c in ranked_followups(d, deckset)}
            assert q.ref in near, f"{q.ref} is not next to {drill.id}"


def test_same_seed_same_plan_and_seeds_differ():
    assert plan_mock(1234, 45) == plan_mock(1234, 45)
    assert plan_mock(1234, 45).to_json() == MockPlan.from_json(plan_mock(1234, 45).to_json()).to_json()
    assert len({tuple((i.kind, i.ref) for i in plan_mock(s).items) for s in range(20)}) > 10


def test_questions_move_to_neighbouring_concepts():
    from drills import get_drill

    deckset = load_decks()
    ranked = ranked_followups(get_drill("fix-value-min-max"), deckset)
    first = {c for rank, c in ranked if rank == 0}
    assert {"value-clip-evidence", "value-half-factor"} <= first  # why clip the critic, what the 0.5 is for
    assert "value-clipped-loss" not in {c for _, c in ranked}  # the fix just made states it
    drills = {d.id: d for d in load_drills()}
    near = total = 0
    for seed in range(30):
        for q in plan_mock(seed).questions:
            total += 1
            near += any(q.ref == c and rank <= 1 for rank, c in ranked_followups(drills[q.drill], deckset))
    assert near / total > 0.6


def test_followup_data_names_real_concepts():
    from cards.decks.loader import load_checklist

    import yaml

    from cards.plan.followups import FOLLOWUPS_PATH

    class Strict(yaml.SafeLoader):  # a key given twice (a merge of two lists) silently drops one
        def construct_mapping(self, node, deep=False):
            keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
            assert len(keys) == len(set(keys)), f"followups.yaml repeats {[k for k in keys if keys.count(k) > 1]}"
            return super().construct_mapping(node, deep)

    yaml.load(FOLLOWUPS_PATH.read_text(encoding="utf-8"), Loader=Strict)
    known = {item.id for item in load_checklist()[0]}
    data = load_followups()
    for concept, near in data.neighbours.items():
        assert concept in known and set(near) <= known, concept
    drill_ids = {d.id for d in load_drills()}
    cards = load_decks().by_id
    for drill, stated in data.stated_by_prompt.items():
        assert drill in drill_ids and set(stated) <= set(cards), drill
    assert any(data.what_if_tag in c.tags for c in cards.values())


def test_what_if_questions_come_from_every_deck_with_scenario_cards():
    deckset = load_decks()
    tagged = [c for c in deckset.cards if "what-if" in c.tags]
    for card in deckset.cards:  # a scenario question is tagged, whichever deck it is in
        if "what would you change" in " ".join(card.front.lower().split()):
            assert "what-if" in card.tags, f"{card.id} asks what you would change: tag it what-if"
    assert len({c.deck for c in tagged}) > 1
    drawn = {q.ref for seed in range(80) for q in plan_mock(seed).questions if q.ref in {c.id for c in tagged}}
    assert {deckset.by_id[c].deck for c in drawn} == {c.deck for c in tagged}, "some decks' what-ifs are never asked"
    assert len(drawn) >= 0.75 * len(tagged)


# the PPO update-loop drills follow-ups are written for; checked as soon as the drills exist
UPDATE_LOOP_DRILLS = ("ppo-update", "fix-old-logp-in-loop")


def test_every_core_and_pitfall_drill_has_followups_on_neighbouring_concepts():
    deckset = load_decks()
    drills = [d for d in load_drills() if d.kind in ("core", "pitfall")]
    ids = {d.id for d in drills}
    assert len(drills) >= 40 and {d.kind for d in drills} == {"core", "pitfall"}
    data = load_followups()
    for drill in drills:
        stated = stated_cards(drill, deckset)
        ranked = ranked_followups(drill, deckset)
        near = [c for rank, c in ranked if rank == 0]
        assert not stated & {c for _, c in ranked}, f"{drill.id}: a follow-up its prompt or cards answer"
        assert len(near) >= 4, f"{drill.id}: only {near} next to it; add neighbours in followups.yaml"
        own = {k for c in drill.cards if c in deckset.by_id for k in deckset.by_id[c].concepts}
        moved_to = {k for c in near for k in deckset.by_id[c].concepts} - own
        assert len(moved_to) >= 2, f"{drill.id}: follow-ups stay on one concept {moved_to}"
        assert own & set(data.neighbours), f"{drill.id}: none of its concepts has neighbours listed"
    for drill_id in data.stated_by_prompt:
        assert drill_id in ids or drill_id in UPDATE_LOOP_DRILLS, drill_id


@pytest.mark.parametrize("drill_id", [d.id for d in load_drills() if d.kind in ("core", "pitfall")])
def test_a_mock_on_any_drill_asks_its_neighbours_never_its_own_answers(drill_id):
    deckset = load_decks()
    drills = {d.id: d for d in load_drills()}
    drill = drills[drill_id]
    # a partner drill on another topic, not easy, so the mock can be drawn with this drill in it
    partner = next(d for d in drills.values() if d.kind == "core" and d.topic != drill.topic
                   and d.difficulty != "easy" and d.id != drill_id)
    plan = plan_mock(7, 60, drills=[drill, partner], deckset=deckset)
    assert {i.ref for i in plan.drills} == {drill_id, partner.id}
    ranked = {c: rank for rank, c in ranked_followups(drill, deckset)}
    stated = stated_cards(drill, deckset) | stated_cards(partner, deckset)
    after = [q for q in plan.questions if q.drill == drill_id]
    what_ifs = [q for q in plan.questions if "what-if" in deckset.by_id[q.ref].tags]
    assert len(what_ifs) == 1 and len({q.ref for q in plan.questions}) == len(plan.questions)
    assert after, f"no follow-up after {drill_id}"
    for q in after:
        assert q.ref not in stated
        if q not in what_ifs:
            assert ranked.get(q.ref, 9) <= 1, f"{q.ref} after {drill_id} is not a neighbouring concept"
    assert any(ranked.get(q.ref) == 0 for q in after)


def test_update_loop_drills_have_followups_once_they_exist():
    deckset = load_decks()
    present = [d for d in load_drills() if d.id in UPDATE_LOOP_DRILLS]
    for drill in present:
        assert len([c for rank, c in ranked_followups(drill, deckset) if rank == 0]) >= 4, drill.id


def test_framework_choice_and_minutes_validation():
    plan = plan_mock(5, 60, framework="torch")
    assert all(i.framework == "torch" for i in plan.drills)
    assert sum(i.budget_s for i in plan.items) == 3600
    with pytest.raises(ValueError, match="minutes must be a whole number from 15 to 180"):
        plan_mock(5, 5)
    short = plan_mock(9, 15)
    assert len(short.drills) == 2 and 6 <= len(short.questions) <= 10


def test_format_plan_lists_every_item_and_the_replay_command():
    plan = plan_mock(42)
    text = format_plan(plan)
    for item in plan.items:
        assert item.ref in text
    assert "ppo-drill mock --seed 42 --minutes 45" in text


# -- timer accounting ----------------------------------------------------------------------


def test_timer_counts_open_time_and_skips_recorded_pauses(clock):
    s = MockSession.start(plan_mock(3), clock=clock)
    assert s.status == "running" and s.elapsed_s() == 0
    clock.advance(100)
    assert s.elapsed_s() == 100 and s.item_elapsed_s() == 100
    s.pause()
    clock.advance(50)
    assert s.status == "paused" and s.elapsed_s() == 100 and s.paused_s() == 50
    with pytest.raises(MockStateError, match="paused"):
        s.submit_drill(True)
    s.resume()
    clock.advance(20)
    assert s.elapsed_s() == 120
    s.submit_drill(True)
    assert s.results[0].time_s == 120
    clock.advance(30)
    assert s.item_elapsed_s() == 30
    s.pause()
    clock.advance(10)
    s.resume()
    clock.advance(5)
    s.grade_question("knew")
    assert s.results[1].time_s == 35
    assert s.remaining_s() == 45 * 60 - 155
    card = score_session(s)
    assert card.paused_s == 60
    assert [p["seconds"] for p in card.pauses] == [50, 10]
    assert all(p["reason"] == "key" for p in card.pauses)


def test_time_up_finishes_at_the_clock_not_later(clock):
    plan = plan_mock(3, 15)
    s = MockSession.start(plan, clock=clock)
    clock.advance(60)
    s.pause()
    clock.advance(600)
    s.resume()
    clock.advance(plan.total_s)  # the app noticed late
    assert s.tick() is True
    assert s.finish_reason == "time-up"
    assert s.elapsed_s() == plan.total_s
    assert s.finished_at == T0 + timedelta(seconds=600 + plan.total_s)
    with pytest.raises(MockStateError, match="finished"):
        s.grade_question("knew")


def test_wrong_item_kind_and_bad_grade_are_refused(clock):
    s = MockSession.start(plan_mock(3), clock=clock)
    with pytest.raises(MockStateError, match="not a question"):
        s.grade_question("knew")
    s.give_up()
    with pytest.raises(ValueError, match="knew, partly, missed"):
        s.grade_question("sort of")


# -- scorecard -----------------------------------------------------------------------------


def test_time_factor_rubric():
    assert time_factor(100, 100) == 1.0
    assert time_factor(150, 100) == 0.5
    assert time_factor(250, 100) == 0.0
    assert time_factor(None, 100) == 0.0


def _play(s: MockSession, clock: FakeClock) -> None:
    """A fixed run: drill 1 failed once then passed on time, questions knew / partly / missed ...,
    the rest unanswered."""
    first = s.current
    clock.advance(60)
    s.submit_drill(False, [("clip-around-zero", "pitfall-clip-range")])
    clock.advance(first.budget_s - 60)  # exactly at the budget
    s.submit_drill(True)
    grades = iter(["knew", "partly", "missed"])
    while s.current is not None and s.current.kind == "question":
        clock.advance(s.current.budget_s * 1.5)  # half over budget: time factor 0.5
        s.grade_question(next(grades, "knew"))


def test_scorecard_values(clock):
    plan = plan_mock(11, 45)
    s = MockSession.start(plan, clock=clock)
    _play(s, clock)
    s.finish()
    card = score_session(s)
    items = {i.index: i for i in card.items}
    d0 = items[0]
    assert (d0.outcome, d0.correct, d0.time_factor, d0.points, d0.runs) == ("passed", 1.0, 1.0, 3.0, 2)
    assert d0.on_time
    assert [m["id"] for m in d0.mistakes] == ["clip-around-zero"]
    assert d0.mistakes[0]["title"]  # the catalogue's title was looked up
    asked = [i for i in card.items if i.kind == "question" and i.outcome != "unanswered"]
    expected_grades = ["knew", "partly", "missed"] + ["knew"] * (len(asked) - 3)
    assert [i.outcome for i in asked] == expected_grades
    for q in asked:
        assert q.time_factor == pytest.approx(0.5)
        assert q.points == pytest.approx(q.correct * (0.8 + 0.2 * 0.5))
    rest = [i for i in card.items if i.index > asked[-1].index]
    assert rest and all(i.outcome == "unanswered" and i.points == 0 for i in rest)
    weights = sum(3 if i.kind == "drill" else 1 for i in plan.items)
    earned = 3.0 + sum(q.correct * 0.9 for q in asked)
    assert card.score == pytest.approx(round(100 * earned / weights, 1))
    correct = 3.0 + sum(q.correct for q in asked)
    assert card.correctness == pytest.approx(round(100 * correct / weights, 1))
    assert card.rubric == RUBRIC and "correctness" in RUBRIC.lower()
    topics = [t["topic"] for t in card.study_next]
    assert set(topics) <= {i.topic for i in card.items if i.time_s is not None}  # unreached: no evidence
    missed = next(q for q in asked if q.outcome == "missed")
    assert missed.topic in topics
    assert any(missed.ref in t["cards"] for t in card.study_next)
    assert any("pitfall-clip-range" in t["cards"] for t in card.study_next)
    text = format_scorecard(card)
    assert f"Score {card.score:.1f} / 100" in text and "Rubric:" in text and "clip-around-zero" in text
    assert "No pauses" in text


def test_scorecard_shows_pauses(clock):
    s = MockSession.start(plan_mock(2), clock=clock)
    clock.advance(10)
    s.pause()
    clock.advance(90)
    s.resume()
    s.finish()
    card = score_session(s)
    assert card.paused_s == 90
    assert "Paused 1 time(s), 1:30 in all (not counted)" in format_scorecard(card)


# -- persistence and the training loop -----------------------------------------------------


def test_crash_mid_mock_keeps_what_was_answered(tmp_path, clock):
    data = tmp_path / "data"
    store = open_store(data)
    s = start_mock(plan_mock(8), store, clock=clock, fuzz=False)
    clock.advance(120)
    s.submit_drill(True)
    clock.advance(40)
    s.grade_question("partly")
    clock.advance(15)
    s.touch()
    mock_id = s.mock_id
    store.close()  # the process dies here: nothing more is written
    del s
    clock.advance(300)  # the app is closed for five minutes
    with open_store(data) as store2:
        assert unfinished_mocks(store2) == [mock_id]
        again = resume_mock(store2, mock_id, clock=clock, fuzz=False)
        assert [r.outcome for r in again.results[:2]] == ["passed", "partly"]
        assert again.current.index == 2
        assert again.elapsed_s() == 175  # the closed five minutes are not counted ...
        assert again.pauses[-1].reason == "closed" and again.pauses[-1].seconds(clock()) == 300
        clock.advance(5)
        again.grade_question("knew")
        again.finish()
        card = score_session(again)
        assert "away: the mock left open or the app closed" in format_scorecard(card)  # ... and the scorecard says so
        assert unfinished_mocks(store2) == []
        row = store2.mocks()[-1]
        assert row.finished_at is not None and row.payload["scorecard"]["score"] == card.score


def test_load_refuses_foreign_payload(store):
    mock_id = store.record_mock(seed=1, started_at=T0, payload={"what": "ever"})
    with pytest.raises(ValueError, match="field 'payload'"):
        MockSession.load(store, mock_id)
    broken = store.record_mock(seed=1, started_at=T0, payload={"version": 1, "plan": {"seed": 1}})
    with pytest.raises(ValueError, match="field 'payload' is damaged"):
        MockSession.load(store, broken)
    with pytest.raises(KeyError, match="no mock session"):
        MockSession.load(store, "nope")


def test_mock_drill_runs_are_attempts_and_send_cards_back(store, clock):
    s = MockSession.start(plan_mock(11), store, clock=clock, fuzz=False)
    drill = s.current
    assert store.card_state("pitfall-clip-range") is None
    clock.advance(90)
    s.submit_drill(False, [("clip-around-zero", "pitfall-clip-range")], code="def f(): pass")
    attempts = store.attempts()
    assert [(a.drill_id, a.passed, a.mistakes, a.elapsed_s) for a in attempts] == [
        (drill.ref, False, ["clip-around-zero"], 90.0)]
    again = [r for r in store.reviews() if r.source == "checker"]
    assert [(r.card_id, r.rating) for r in again] == [("pitfall-clip-range", 1)]
    assert store.drill_state(drill.ref) is not None
    clock.advance(30)
    s.submit_drill(True)
    q = s.current
    clock.advance(20)
    s.grade_question("missed")
    user = [r for r in store.reviews() if r.source == "user"]
    assert [(r.card_id, r.rating) for r in user] == [(q.ref, 1)]


# -- timer invariants over random action sequences -----------------------------------------

from hypothesis import given, strategies as st  # noqa: E402

ACTIONS = st.lists(st.tuples(st.sampled_from(["wait", "pause", "resume", "answer", "touch"]),
                             st.integers(min_value=0, max_value=400)), max_size=40)


@given(ACTIONS)
def test_open_time_plus_pauses_is_wall_time(actions):
    clock = FakeClock()
    plan = plan_mock(21, 30)
    s = MockSession.start(plan, clock=clock)
    for action, seconds in actions:
        clock.advance(seconds)
        s.tick()  # the screen ticks every second; time running out ends the session
        if s.finished:
            break
        try:
            if action == "pause":
                s.pause()
            elif action == "resume":
                s.resume()
            elif action == "answer":
                if s.current.kind == "drill":
                    s.submit_drill(seconds % 2 == 0)
                else:
                    s.grade_question(["knew", "partly", "missed"][seconds % 3])
            elif action == "touch":
                s.touch()
        except MockStateError:
            pass
        wall = ((s.finished_at or clock()) - T0).total_seconds()
        assert s.elapsed_s() + s.paused_s() == pytest.approx(wall)
        assert 0 <= s.elapsed_s() <= plan.total_s
        done = [r for r in s.results if r.ended_s is not None]
        assert all(r.time_s >= 0 for r in done)
        if done:  # items follow each other on the active clock, with no gaps
            assert done[0].started_s == 0
            assert all(a.ended_s == b.started_s for a, b in zip(s.results, s.results[1:]))
        for a in (0.0, s.elapsed_s() / 2, s.elapsed_s()):
            assert s._active_at(s._wall_at(a)) == pytest.approx(a)
    s.finish()
    card = score_session(s)
    assert 0 <= card.score <= card.correctness <= 100


def test_the_scorecard_joins_a_cards_source_line_breaks_as_markdown_does():
    from cards.plan.mock_review import unwrap

    assert unwrap("Why is the KL in the\npenalty KL(pi_old || pi_theta)?") == \
        "Why is the KL in the penalty KL(pi_old || pi_theta)?"
    text = "What is wrong?\n\n```python\nfor t in x:\n    y = 1\n```\n- one\n- two\n\n| a | b |\n| 1 | 2 |"
    assert unwrap(text) == text  # paragraphs, fenced code, lists and tables keep their lines


def test_a_followup_is_never_answered_by_the_drill_just_before_it():
    """After a fix-the-bug drill of the adaptive KL penalty (its file shows the beta rule), the next
    question is not "describe the KL-penalty variant", nor after the core drill that writes it."""
    from drills import get_drill

    deckset = load_decks()
    plan = plan_mock(888822, 45)
    drill = plan.items[0]
    assert drill.ref == "fix-klpen-per-minibatch"
    asked = [q.ref for q in plan.questions if q.drill == drill.ref]
    assert "tr-kl-penalty-variant" not in asked
    for drill_id in ("kl-penalty", "fix-klpen-per-minibatch"):
        assert "tr-kl-penalty-variant" in stated_cards(get_drill(drill_id), deckset)



_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*|\d+(?:\.\d+)?")
_STOP = set("the a an of to in is and or it its for on by with as be that this not are at from each one per if "
            "when what which than then so but all no can does do".split())


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP and len(w) > 2}


@pytest.mark.parametrize("drill_id", [d.id for d in load_drills() if d.kind in ("core", "pitfall")])
def test_no_followup_card_is_mostly_written_in_the_drills_prompt(drill_id):
    """A card whose answer's words stand mostly in the prompt (and, for a fix-the-bug drill, in the code
    shown) would be answered by reading the screen: list it in followups.yaml's stated_by_prompt."""
    from drills import get_drill

    deckset = load_decks()
    drill = get_drill(drill_id)
    shown = _words(drill.prompt + (drill.starter(drill.frameworks[0]) if drill.is_pitfall else ""))
    for _, card_id in ranked_followups(drill, deckset):
        answer = _words(deckset.by_id[card_id].back)
        share = len(answer & shown) / len(answer) if answer else 0.0
        assert share < 0.6, f"{card_id}: {share:.0%} of its answer stands in {drill_id}'s prompt"

"""Statistics, the pitfall profile and `ppo-drill stats` over a synthetic history with a fixed clock."""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest

from cards.decks.loader import load_decks
from cards.plan.profile import pitfall_profile
from cards.plan.stats import (due_forecast, drill_times, format_summary, mock_scores, overall_retention,
                              retention, reviews_per_day, summary)
from cards.progress.store import open_store
from cards.schedule.scheduler import Scheduler
from drills import load_drills
from tui.cli import main

NOW = datetime(2026, 3, 11, 15, 0, tzinfo=timezone.utc)  # a Wednesday
DAY = timedelta(days=1)


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "data") as s:
        yield s


def _history(store):
    """Three cards learned 10 days ago, then reviewed in Review state with known ratings."""
    deckset = load_decks()
    sch = Scheduler(store, deckset, clock=lambda: NOW, fuzz=False)
    a, b, c = "gae-td-error", "ppo-clipped-objective", "value-clipped-loss"
    start = NOW - 10 * DAY
    for cid in (a, b, c):
        sch.review(cid, 3, now=start)                  # learning step
        sch.review(cid, 3, now=start + timedelta(minutes=10))  # graduates to Review
    sch.review(a, 3, now=NOW - 2 * DAY)   # review state, recalled
    sch.review(b, 1, now=NOW - 2 * DAY)   # review state, forgotten
    sch.review(c, 3, now=NOW - 0.5 * DAY)  # review state, recalled (today, 03:00)
    sch.mark_again(a, now=NOW - 0.25 * DAY)  # the checker: not a recall attempt
    return sch


def test_reviews_per_day_and_retention(store):
    _history(store)
    days = reviews_per_day(store, NOW, days=14)
    assert len(days) == 14 and days[-1].day == date(2026, 3, 11) and days[0].day == date(2026, 2, 26)
    by_day = {d.day: d for d in days}
    assert (by_day[date(2026, 3, 1)].reviews, by_day[date(2026, 3, 1)].user) == (6, 6)
    assert by_day[date(2026, 3, 9)].reviews == 2 and by_day[date(2026, 3, 9)].again == 1
    today = by_day[date(2026, 3, 11)]
    assert (today.reviews, today.user, today.checker, today.again) == (2, 1, 1, 1)
    daily = {p.start: p for p in retention(store, NOW, days=14)}
    assert (daily[date(2026, 3, 9)].reviewed, daily[date(2026, 3, 9)].recalled) == (2, 1)
    assert daily[date(2026, 3, 9)].rate == 0.5
    assert (daily[date(2026, 3, 11)].reviewed, daily[date(2026, 3, 11)].recalled) == (1, 1)
    assert daily[date(2026, 3, 1)].reviewed == 0 and daily[date(2026, 3, 1)].rate is None
    weekly = retention(store, NOW, days=14, period="week")
    assert [p.start for p in weekly] == [date(2026, 2, 23), date(2026, 3, 2), date(2026, 3, 9)]
    assert (weekly[-1].reviewed, weekly[-1].recalled) == (3, 2)
    assert overall_retention(weekly) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="period"):
        retention(store, NOW, period="month")


def test_due_forecast_counts_overdue_today_and_ignores_new(store):
    _history(store)
    states = store.card_states()
    forecast = due_forecast(store, NOW)
    assert len(forecast) == 30 and forecast[0][0] == date(2026, 3, 11)
    assert sum(n for _, n in forecast) == sum(1 for due, _ in states.values() if due.date() < date(2026, 4, 10))
    for cid, (due, _) in states.items():
        day = max(due.date(), NOW.date())
        assert dict(forecast)[day] >= 1, cid
    assert sum(n for _, n in due_forecast(store, NOW, card_ids=["gae-td-error"])) == 1


def test_drill_times_profile_and_mock_scores(store):
    t = NOW - 3 * DAY
    store.record_attempt("gae", framework="numpy", started_at=t, finished_at=t + timedelta(minutes=12),
                         passed=False, elapsed_s=720, mistakes=["gae-forward-scan", "gae-missing-gamma"])
    store.record_attempt("gae", framework="numpy", started_at=t + DAY, finished_at=t + DAY,
                         passed=True, elapsed_s=480, mistakes=[])
    store.record_attempt("policy-loss", framework="torch", started_at=t + 2 * DAY,
                         finished_at=t + 2 * DAY, passed=False, elapsed_s=200,
                         mistakes=["gae-forward-scan", "gae-forward-scan"])
    store.record_attempt("gae", framework="numpy", started_at=NOW, passed=False, mistakes=["no-such-id"])
    times = {d.drill_id: d for d in drill_times(store)}
    assert list(times) == ["gae", "policy-loss"]  # drill order; the untimed attempt is left out
    assert times["gae"].target_s == 600 and times["gae"].best_s == 480 and times["gae"].passes == 1
    assert [e for _, e, _ in times["gae"].attempts] == [720, 480]
    assert times["policy-loss"].best_s is None
    profile = pitfall_profile(store)
    assert [(p.mistake_id, p.count) for p in profile] == [
        ("gae-forward-scan", 2), ("no-such-id", 1), ("gae-missing-gamma", 1)]  # ties: later first
    top = profile[0]
    assert top.drills == ("gae", "policy-loss") and top.last_seen == t + 2 * DAY
    assert top.card and top.title != top.mistake_id
    rest = {p.mistake_id: p for p in profile[1:]}
    assert set(rest) == {"gae-missing-gamma", "no-such-id"}
    assert rest["no-such-id"].title == "no-such-id" and rest["no-such-id"].card is None
    assert len(pitfall_profile(store, limit=1)) == 1
    assert [p.mistake_id for p in pitfall_profile(store, since=NOW)] == ["no-such-id"]

    store.record_mock(seed=3, started_at=t, finished_at=t + timedelta(minutes=45),
                      payload={"version": 1, "scorecard": {"score": 61.5, "correctness": 70.0, "minutes": 45}})
    store.record_mock(seed=4, started_at=t + DAY, payload={"version": 1})  # unfinished: not a score
    scores = mock_scores(store)
    assert [(m.seed, m.score, m.correctness, m.minutes) for m in scores] == [(3, 61.5, 70.0, 45)]


def test_summary_is_json_and_text(store):
    _history(store)
    store.record_attempt("gae", framework="numpy", started_at=NOW, finished_at=NOW, passed=True,
                         elapsed_s=300, mistakes=["gae-forward-scan"])
    data = summary(store, NOW, days=14, drills=load_drills(), deckset=load_decks())
    again = json.loads(json.dumps(data))
    assert again == data
    assert data["reviews_total"] == 10
    assert data["retention"]["overall"] == pytest.approx(2 / 3)
    assert len(data["due_forecast"]) == 30
    assert data["drill_times"][0]["attempts"][0]["within_target"] is True
    assert data["pitfalls"][0]["mistake"] == "gae-forward-scan"
    text = format_summary(data)
    assert "Retention (review cards, your ratings): 67%" in text
    assert "gae-forward-scan" in text and "gae best 5.0 min / target 10 min 1/1 timed passed" in " ".join(text.split())
    assert "of all checks" not in text  # every check of gae was timed
    # untimed checks (the command line, a paste) are counted beside the timed ones, not hidden
    store.record_attempt("gae", framework="numpy", started_at=NOW, passed=False, mistakes=[])
    store.record_attempt("gae", framework="numpy", started_at=NOW, passed=True, mistakes=[])
    data = summary(store, NOW, days=14, drills=load_drills(), deckset=load_decks())
    (gae,) = [t for t in data["drill_times"] if t["drill"] == "gae"]
    assert (gae["passes"], len(gae["attempts"]), gae["checks_passed"], gae["checks"]) == (1, 1, 2, 3)
    assert "1/1 timed passed (2/3 of all checks" in " ".join(format_summary(data).split())


def test_stats_cli_json_prints_one_object(capsys, tmp_path):
    home = tmp_path / "home"
    with open_store(home) as s:
        s.record_attempt("gae", framework="numpy", started_at=NOW, finished_at=NOW, passed=False,
                         elapsed_s=30, mistakes=["gae-forward-scan"])
    assert main(["--data-dir", str(home), "stats", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)  # exactly one JSON document: anything else fails to parse
    assert isinstance(data, dict) and out.count("\n") == 1
    assert data["pitfalls"][0]["mistake"] == "gae-forward-scan"
    assert main(["--data-dir", str(home), "stats"]) == 0
    assert "Pitfall profile" in capsys.readouterr().out
    assert main(["--data-dir", str(home), "stats", "--days", "0"]) == 2
    assert "--days must be from 1 to 3650" in capsys.readouterr().err


def test_stats_cli_reports_a_bad_store(capsys, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "progress.sqlite3").write_text("not a database")
    assert main(["--data-dir", str(home), "stats"]) == 1
    assert "not a ppo-drill progress database" in capsys.readouterr().err

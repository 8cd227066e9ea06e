"""The study plan in the app, with Pilot at 80x24 and 100x30 (fixed clock, temp data folder): the
dashboard's days left, today's plan and readiness weakest first, setting the date in the settings
dialog, the plan's new-card allowance in the review queue, and practising ahead without touching
schedules."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest
from rich.console import Console

from cards.plan.interview import interview_date, set_interview_date
from cards.plan.mock_plan import COACHED_SETTING
from cards.progress.store import open_store
from cards.schedule.scheduler import Scheduler
from tests.terminal_sizes import SIZES, at_each_size
from tui.app import PpoDrillApp
from tui.screens.plan_settings import PlanSettingsScreen
from tui.screens.review import ReviewScreen
from tui.testing import FIXED_START, FixedClock, ScriptedChecker
from tui.widgets.plan_panel import PlanPanel

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def make_app(data_dir, clock=None):
    checker = ScriptedChecker()
    app = PpoDrillApp(data_dir=data_dir, clock=clock or FixedClock(), checker_factory=lambda: checker,
                      fuzz=False)
    app.animation_level = "none"
    return app


def plain(widget, width: int = 200) -> str:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))
    console.print(widget.content)
    return console.export_text()


async def settle(pilot, app):
    for _ in range(500):
        if app.session is not None:
            break
        await pilot.pause(0.01)
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def _fully_visible(app, widget) -> bool:
    region, screen = widget.region, app.screen.region
    return region.height > 0 and screen.contains_region(region)


async def test_dashboard_shows_days_left_today_and_readiness(tmp_path):
    data = tmp_path / "data"
    with open_store(data) as store:
        set_interview_date(store, FIXED_START.date() + timedelta(days=21))
        sch = Scheduler(store, _decks(), clock=lambda: FIXED_START, fuzz=False)
        for card in [c for c in _decks().cards if c.deck == "gae"]:
            sch.review(card.id, 3, now=FIXED_START - timedelta(days=1))
            sch.review(card.id, 3, now=FIXED_START - timedelta(days=1, minutes=-10))
    app = make_app(data)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, app)

        async def check(size):
            panel = app.screen.query_one(PlanPanel)
            text = plain(panel)
            assert "Interview in 21 days · today 0/" in text
            assert "new cards 0/" in text and "reviews due" in text
            assert "Readiness on the day" in text
            plan = panel.plan
            assert [t.readiness for t in plan.readiness] == sorted(t.readiness for t in plan.readiness)
            assert plan.readiness[0].title in text and plan.readiness[-1].topic == "gae"
            assert _fully_visible(app, panel)
            # the plan's new-card allowance is the review queue's
            assert app.session.scheduler.new_per_day == plan.new_per_day
            footer = app.screen.query_one("Footer")
            keys = {str(k.key_display or k.key) for k in footer.query("FooterKey")} if hasattr(footer, "query") else set()
            assert "i" in keys and "m" in keys

        await at_each_size(pilot, check, back=False)


async def test_setting_the_date_in_the_settings_dialog(tmp_path):
    app = make_app(tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "no interview date" in plain(app.screen.query_one(PlanPanel))
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, PlanSettingsScreen)
        await pilot.press(*"2026-13-01", "enter")
        await pilot.pause()
        assert isinstance(app.screen, PlanSettingsScreen)  # refused, with the reason
        assert "YYYY-MM-DD" in str(app.screen.query_one("#settings-error").render())
        app.screen.query_one("#interview-date").value = "2026-03-16"
        app.screen.query_one("#coached").value = True
        await pilot.press("enter")
        await settle(pilot, app)
        assert not isinstance(app.screen, PlanSettingsScreen)
        assert interview_date(app.session.store).isoformat() == "2026-03-16"
        assert app.session.store.get_setting(COACHED_SETTING) is True
        assert "Interview in 14 days" in plain(app.screen.query_one(PlanPanel))


async def test_practise_ahead_previews_without_changing_schedules(tmp_path):
    data = tmp_path / "data"
    ids = [c.id for c in _decks().cards[:3]]
    with open_store(data) as store:
        set_interview_date(store, FIXED_START.date() + timedelta(days=30))
        store.set_setting("new_per_day", 0)
        sch = Scheduler(store, _decks(), clock=lambda: FIXED_START, fuzz=False)
        for cid in ids:
            sch.review(cid, 3, now=FIXED_START - timedelta(hours=2))
            sch.review(cid, 3, now=FIXED_START - timedelta(hours=1))
        before = store.fsrs_states("card")
        reviews = len(store.reviews())
    app = make_app(data)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.session.scheduler.new_per_day = 0
        app.session.store.set_setting("interview_date", None)  # plain review: the allowance stays 0
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.card is None
        assert "practise ahead" in screen.query_one("#review-front").source
        await pilot.press("a")
        await pilot.pause()
        assert screen.card is not None and screen.card.id in ids
        assert "schedules unchanged" in str(screen.query_one("#review-meta").render())
        for _ in ids:
            await pilot.press("space")
            labels = [str(b.label) for b in screen.query("RatingBar Button")]
            assert all(label.endswith("· preview") for label in labels)
            await pilot.press("1")
        assert screen.card is None
        assert app.session.store.fsrs_states("card") == before
        assert len(app.session.store.reviews()) == reviews
        from cards.schedule.preview import previews

        assert sorted(e["ref"] for e in previews(app.session.store) if e["kind"] == "card") == sorted(ids)


async def test_practise_ahead_on_a_drill_is_a_preview(tmp_path):
    from cards.schedule.preview import previews
    from cards.schedule.training import record_check
    from drills import get_drill
    from tui.screens.workspace import WorkspaceScreen

    data = tmp_path / "data"
    with open_store(data) as store:
        set_interview_date(store, FIXED_START.date() + timedelta(days=30))
        store.set_setting("new_per_day", 0)
        for did in ("gae", "value-loss"):
            record_check(store, drill_id=did, framework="numpy", passed=True, mistakes=[],
                         started_at=FIXED_START - timedelta(days=1), finished_at=FIXED_START - timedelta(days=1),
                         elapsed_s=60, target_minutes=10, fuzz=False)
        before = store.fsrs_states("drill")
        attempts = len(store.attempts())
    app = make_app(data)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.session.store.set_setting("interview_date", None)  # plain review: the allowance stays 0
        app.session.scheduler.new_per_day = 0
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.card is None
        assert "Press **w** to practise ahead on a drill" in screen.query_one("#review-front").source
        first = app.session.practise_ahead()[1][0]
        await pilot.press("w")
        await pilot.pause()
        ws = app.screen
        assert isinstance(ws, WorkspaceScreen) and ws.preview and ws.drill.id == first
        assert "Preview" in str(ws.query_one("#ws-title").render())
        ws.editor.load_text(get_drill(first).solution("numpy"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert ws.results.report.passed
        assert app.session.store.fsrs_states("drill") == before
        assert len(app.session.store.attempts()) == attempts
        assert [(e["kind"], e["ref"], e["passed"]) for e in previews(app.session.store)] == [("drill", first, True)]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen  # back on the review screen, which offers the next drill
        rest = [d for d in app.session.practise_ahead()[1] if d != first]
        assert f"**{rest[0]}**" in screen.query_one("#review-front").source


async def test_the_last_day_review_tops_up_what_is_below_target_on_the_day(tmp_path):
    import fsrs

    from cards.plan.interview import TARGET_RECALL, interview_moment, top_up

    data = tmp_path / "data"
    interview = FIXED_START.date() + timedelta(days=1)
    with open_store(data) as store:
        set_interview_date(store, interview)
        for i, card in enumerate(_decks().cards):  # all studied, none due, weak on the day
            state = fsrs.Card(card_id=i + 1, state=fsrs.State.Review, stability=1.2, difficulty=6.0,
                              due=FIXED_START + timedelta(days=1),
                              last_review=FIXED_START - timedelta(days=1)).to_dict()
            store.record_review(card.id, 3, FIXED_START - timedelta(days=1), state, state_before=None)
    app = make_app(data)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        low = top_up(app.session.store, app.session.deckset, app.session.drills, app.session.now())[0]
        assert len(low) == len(_decks().cards)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.card is not None and screen.card.id == low[0]
        assert "study next / top-up" in str(screen.query_one("#review-meta").render())
        await pilot.press("space", "3")
        await pilot.pause()
        assert screen.card is not None and screen.card.id == low[1]
        [review] = app.session.store.reviews(since=FIXED_START - timedelta(minutes=1))
        assert review.card_id == low[0] and review.source == "user"  # a real, early review
        from cards.schedule.recall import recall_at

        state = app.session.store.fsrs_states("card")[low[0]]
        assert recall_at(state, interview_moment(interview)) >= TARGET_RECALL
        await pilot.press("escape")
        await settle(pilot, app)
        text = plain(app.screen.query_one(PlanPanel))
        assert "Interview in 1 day" in text and "mock interview" in text and "top-up" in text


async def test_after_the_interview_the_dashboard_is_plain_spaced_review(tmp_path):
    data = tmp_path / "data"
    with open_store(data) as store:
        set_interview_date(store, FIXED_START.date() - timedelta(days=2))
        store.set_setting("new_per_day", 7)
    app = make_app(data)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, app)

        async def check(size):
            panel = app.screen.query_one(PlanPanel)
            text = plain(panel)
            assert "plain spaced review" in text and "Readiness now" in text and "Interview in" not in text
            assert panel.plan.mode == "after" and not any(t.kind == "mock" for t in panel.plan.tasks)
            assert app.session.scheduler.new_per_day == 7  # the plain setting, not the plan's allowance
            assert _fully_visible(app, panel)

        await at_each_size(pilot, check, back=False)


async def test_review_serves_the_study_next_cards_a_mock_queued(tmp_path):
    from cards.plan.interview import queue_study_next

    data = tmp_path / "data"
    queued = [_decks().cards[10].id, _decks().cards[3].id]
    with open_store(data) as store:
        store.set_setting("new_per_day", 0)  # beyond the new-card allowance: queued cards still come
        queue_study_next(store, FIXED_START, cards=queued)
    app = make_app(data)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.card is not None and screen.card.id == queued[0]
        assert "study next" in str(screen.query_one("#review-meta").render())
        await pilot.press("space", "4")
        await pilot.pause()
        assert screen.card is not None and screen.card.id == queued[1]
        await pilot.press("space", "4")
        await pilot.pause()
        assert screen.card is None
        assert {r.card_id for r in app.session.store.reviews()} == set(queued)
        plan = app.session.study_plan(forecast=False)
        assert all(t.complete for t in plan.tasks if t.kind == "card")


async def test_the_dashboard_follows_a_ten_day_plan_day_by_day(tmp_path):
    """A candidate sets a date ten days out and does each day's plan; the dashboard counts down, ticks
    today's plan off and shows readiness rising to the target, then says so on the day and after."""
    from cards.plan.interview import TARGET_RECALL
    from cards.schedule.training import record_check

    clock = FixedClock()
    interview = FIXED_START.date() + timedelta(days=10)
    data = tmp_path / "data"
    with open_store(data) as store:
        set_interview_date(store, interview)
    app = make_app(data, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        session, dashboard = app.session, app.screen
        overall = []
        for day in range(10):
            dashboard.refresh_numbers()
            await settle(pilot, app)
            panel = dashboard.query_one(PlanPanel)
            text = plain(panel)
            left = 10 - day
            assert f"Interview in {left} day{'s' if left != 1 else ''} · today 0/" in text, text
            overall.append(panel.plan.overall)
            if day == 0:
                assert any("drills not tried yet" in w for w in panel.plan.cannot_promise)
                assert not any("new cards" in w for w in panel.plan.cannot_promise)
            plan = session.study_plan(forecast=False)
            for task in plan.tasks:
                if task.kind == "drill" and not task.complete:
                    record_check(session.store, drill_id=task.ref, framework="numpy", passed=True, mistakes=[],
                                 code=f"answer = {clock.now.isoformat()!r}",  # written afresh each time
                                 started_at=clock.now, finished_at=clock.now, elapsed_s=60, target_minutes=30,
                                 scheduler=session.scheduler, fuzz=False)
                if task.kind == "mock" and not task.complete:
                    session.store.record_mock(seed=day, started_at=clock.now, finished_at=clock.now, payload={})
            for _ in range(3000):  # the review queue, then the plan's own cards, all Good
                card = session.scheduler.next_card() or session.next_plan_card()
                if card is None:
                    break
                session.scheduler.review(card.id, 3)
                clock.advance(minutes=1)
            dashboard.refresh_numbers()
            await settle(pilot, app)
            done, target = dashboard.query_one(PlanPanel).plan.progress
            assert done == target, [t for t in dashboard.query_one(PlanPanel).plan.tasks if not t.complete]
            clock.now = clock.now.replace(hour=9, minute=0) + timedelta(days=1)
        assert overall == sorted(overall) and overall[0] == 0.0
        dashboard.refresh_numbers()
        await settle(pilot, app)
        panel = dashboard.query_one(PlanPanel)
        assert "Interview today" in plain(panel)
        # ten days are enough for every card, not for every drill (the plan said so on day one)
        tried_all = [t for t in panel.plan.readiness if t.drills_tried == t.drills]
        assert tried_all and all(t.readiness >= TARGET_RECALL for t in tried_all), tried_all
        assert all(t.cards_seen == t.cards for t in panel.plan.readiness)
        assert overall[-1] > 0.6
        clock.advance(days=2)
        dashboard.refresh_numbers()
        await settle(pilot, app)
        assert "plain spaced review" in plain(dashboard.query_one(PlanPanel))


def _decks():
    from tui.session import shipped_decks

    return shipped_decks()


async def test_dashboard_says_when_the_plan_cannot_promise_everything(tmp_path):
    data = tmp_path / "data"
    with open_store(data) as store:
        set_interview_date(store, FIXED_START.date() + timedelta(days=3))
    app = make_app(data)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        panel = app.screen.query_one(PlanPanel)
        text = plain(panel)
        assert "Too little time" in text and "new cards in 1 day" in text
        assert panel.plan.cuts and _fully_visible(app, panel)


def _screen_lines(app) -> list[str]:
    import re

    svg = app.export_screenshot()
    text = re.sub(r"<[^>]+>", "", svg).replace("&#160;", " ").replace("&gt;", ">").replace("&lt;", "<")
    return text.splitlines()


async def test_the_plan_panel_keeps_room_for_topics_and_the_readiness_tab_fits(tmp_path):
    """Too little time (10 days, many drills planned today, some failed): the dashboard's plan still
    shows today's tasks on one line and at least three topics; the stats' Readiness tab shows every
    column inside the screen, long topic titles cut with …."""
    from drills import load_drills

    data = tmp_path / "data"
    with open_store(data) as store:
        set_interview_date(store, FIXED_START.date() + timedelta(days=10))
        for d in load_drills()[:8]:  # tried and failed before today: each is back on today's plan
            store.record_attempt(d.id, framework="numpy", started_at=FIXED_START - timedelta(days=1), passed=False)
    app = make_app(data)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, app)
        panel = app.screen.query_one(PlanPanel)

        async def dashboard_shown(size):
            plan = panel.plan
            assert plan.cannot_promise and len([t for t in plan.tasks if t.kind == "drill"]) >= 8
            assert _fully_visible(app, panel)
            shown = [t.title[:20] for t in plan.readiness if any(t.title[:20] in line for line in _screen_lines(app))]
            assert len(shown) >= 3, shown

        await at_each_size(pilot, dashboard_shown)
        await pilot.press("s")
        await settle(pilot, app)
        app.screen.query_one("#stats-tabs").active = "tab-readiness"
        await pilot.pause()
        await pilot.pause()

        async def readiness_shown(size):
            table = app.screen.query_one("#readiness-table")
            widths = [c.get_render_width(table) for c in table.columns.values()]
            assert [str(c.label) for c in table.columns.values()] == ["ready", "topic", "cards", "drills", "mastered", "weakest"]
            assert sum(widths) <= size[0], widths  # every column inside the screen
            lines = _screen_lines(app)
            header = next(line for line in lines if " ready " in line and " topic " in line)
            assert header.rstrip().endswith("weakest"), header
            assert any("…" in line for line in lines)  # a long title is cut, and marked

        await at_each_size(pilot, readiness_shown, back=False)

"""Mock interviews like an interview, with Pilot at 80x24 and 100x30 (scripted checker, fixed clock,
temp data folder): during the mock only pass / fail and the smallest failing input (the coached
setting keeps the named mistake); the prompt scrolls and is reached by keyboard; a revealed answer
scrolls into view; every footer key fits; the scorecard reveals typed answers beside the cards', code
against the model answer and time against budget, and queues "study next" into today's plan; mock
history reopens scorecards and compares two runs of a seed. Also the same without an app."""
from __future__ import annotations

import os

import pytest
from rich.console import Console
from textual.widgets import DataTable

from cards.plan.interview import EXTRA_SETTING
from cards.plan.mock import plan_mock, start_mock
from cards.plan.mock_plan import COACHED_SETTING
from cards.plan.mock_review import (compare_runs, format_comparison, format_review, load_finished, mock_history,
                                    other_run, review_items, study_next_items)
from cards.progress.store import open_store
from drills import get_drill
from tests.terminal_sizes import SIZES, at_each_size
from tui.app import PpoDrillApp
from tui.screens.mock import MockScreen
from tui.screens.mock_history import MockHistoryScreen
from tui.testing import FixedClock, ScriptedChecker

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def make_app(data_dir, clock):
    checker = ScriptedChecker()
    app = PpoDrillApp(data_dir=data_dir, clock=clock, checker_factory=lambda: checker, fuzz=False)
    app.animation_level = "none"
    return app


def rendered(widget, width: int = 200) -> str:
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


async def footer_fits(pilot) -> list[str]:
    """The footer keys shown (once the footer has been laid out), asserting each is wholly on screen."""
    app = pilot.app
    for _ in range(50):
        await pilot.pause()
        shown = [k for k in app.screen.query("FooterKey") if k.display and k.region.width]
        if shown:
            break
    width = app.screen.size.width
    for key in shown:
        assert key.region.right <= width, f"footer key {key.key} is cut off at {width} columns"
    return [k.key for k in shown]


def visible_in(container, widget) -> bool:
    return container.region.intersection(widget.region).height > 0


async def _first_drill_wrong_then_right(app, pilot, screen, clock):
    s = screen.mock
    item = s.current
    drill = get_drill(item.ref)
    wrong = next(m for m in drill.mistakes if m.source(item.framework) is not None)
    screen.query_one("#drill-editor").load_text(wrong.source(item.framework))
    clock.advance(seconds=60)
    await pilot.press("ctrl+r")
    await settle(pilot, app)
    return item, drill, wrong


async def test_a_mock_like_an_interview(tmp_path):
    clock = FixedClock()
    app = make_app(tmp_path / "data", clock)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, app)
        screen = MockScreen(plan_mock(11, 45))
        await app.push_screen(screen)
        await pilot.pause()

        async def setup_shown(size):
            assert "Like an interview" in screen.query_one("#setup-text").source
            assert set(await footer_fits(pilot)) == {"enter", "plus", "minus", "r", "s", "h", "escape", "ctrl+p"}

        await at_each_size(pilot, setup_shown)
        await pilot.press("enter")
        await pilot.pause()
        item, drill, wrong = await _first_drill_wrong_then_right(app, pilot, screen, clock)

        async def failed_run_shown(size):
            body = rendered(screen.query_one("#drill-results #body"))
            assert "Smallest counterexample" in body and "checks pass" in body
            assert wrong.title not in body and wrong.id not in body and "Named mistake" not in body
            assert set(await footer_fits(pilot)) >= {"ctrl+r", "f2", "ctrl+b", "ctrl+n", "ctrl+f", "escape"}

        await at_each_size(pilot, failed_run_shown)

        # the prompt scrolls and is reached from the keyboard
        prompt = screen.query_one("#drill-prompt-scroll")

        async def prompt_scrolls(size):
            prompt.scroll_home(animate=False)  # where the last size's pagedown left it
            await pilot.pause()
            await pilot.press("f2")
            assert prompt.has_focus
            if prompt.max_scroll_y:
                assert prompt.scroll_y == 0
                await pilot.press("pagedown")
                await pilot.pause()
                assert prompt.scroll_y > 0
            await pilot.press("f2")
            assert screen.query_one("#drill-editor").has_focus

        await at_each_size(pilot, prompt_scrolls)

        # pass, then a question: type, reveal (scrolled into view), grade
        screen.query_one("#drill-editor").load_text(drill.solution(item.framework))
        clock.advance(seconds=120)
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        question = screen.mock.current
        assert question.kind == "question"
        await pilot.press("t", *"min of both", "ctrl+r")
        await pilot.pause()
        await pilot.pause()
        view = screen.query_one("#question-view")

        async def answer_revealed(size):
            assert visible_in(view, screen.query_one("#question-answer"))
            assert set(await footer_fits(pilot)) >= {"1", "2", "3", "ctrl+b", "ctrl+n", "ctrl+f", "escape"}

        await at_each_size(pilot, answer_revealed)
        await pilot.press("1")  # missed, as Again in a card review

        async def graded(size):
            assert next(r for r in screen.mock.results if r.index == question.index).outcome == "missed"

        await at_each_size(pilot, graded)
        await pilot.press("ctrl+f", "y")
        await pilot.pause()

        # the scorecard reveals everything
        async def scorecard_shown(size):
            assert screen.mock.finished
            review = rendered(screen.query_one("#scorecard-review"), 120)
            assert wrong.title in review and "min of both" in review and "The card's answer" in review
            assert "model answer" in review and "budget" in review
            assert set(await footer_fits(pilot)) >= {"n", "h", "escape"}

        await at_each_size(pilot, scorecard_shown)
        await pilot.press("n")
        await pilot.pause()

        async def study_next_queued(size):
            extra = app.session.store.get_setting(EXTRA_SETTING)
            assert question.ref in extra["cards"] and wrong.card in extra["cards"]
            assert extra["day"] == clock.now.date().isoformat()

        await at_each_size(pilot, study_next_queued, back=False)


async def test_coached_mocks_keep_the_named_mistake(tmp_path):
    clock = FixedClock()
    with open_store(tmp_path / "data") as store:
        store.set_setting(COACHED_SETTING, True)
    app = make_app(tmp_path / "data", clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = MockScreen(plan_mock(11, 45))
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        _, _, wrong = await _first_drill_wrong_then_right(app, pilot, screen, clock)
        assert wrong.title in rendered(screen.query_one("#drill-results #body"))


def _run(store, clock, seed, grades):
    """A finished run of seed `seed`: the first drill failed then given up, questions graded."""
    s = start_mock(plan_mock(seed, 30), store, clock=clock, fuzz=False)
    drill = get_drill(s.current.ref)
    wrong = next(m for m in drill.mistakes if m.source(s.current.framework) is not None)
    clock.advance(seconds=90)
    s.submit_drill(False, [(wrong.id, wrong.card)], code=wrong.source(s.current.framework))
    s.give_up()
    for grade in grades:
        if s.current is None or s.current.kind != "question":
            break
        clock.advance(seconds=40)
        s.grade_question(grade, answer=f"typed {grade}")
    clock.advance(seconds=30)
    s.finish("done")
    return s, wrong


def test_review_history_and_comparison_without_an_app(tmp_path):
    clock = FixedClock()
    with open_store(tmp_path / "data") as store:
        first, wrong = _run(store, clock, 7, ["knew", "missed"])
        clock.advance(hours=3)
        second, _ = _run(store, clock, 7, ["knew", "knew", "partly"])
        clock.advance(hours=1)
        _run(store, clock, 8, ["missed"])
        items = review_items(load_finished(store, first.mock_id))
        drill = items[0]
        assert drill.kind == "drill" and drill.mistakes[0]["id"] == wrong.id and drill.mistakes[0]["explanation"]
        assert drill.diff and drill.diff[0].startswith("--- your code") and drill.hints
        asked = [i for i in items if i.kind == "question" and i.typed]
        assert asked[0].typed == "typed knew" and asked[0].card_answer
        text = format_review(items)
        assert "Your answer:" in text and "The card's answer:" in text and wrong.title in text
        history = mock_history(store)
        assert [h.seed for h in history] == [8, 7, 7]
        assert other_run(store, second.mock_id) == first.mock_id
        assert other_run(store, first.mock_id) == second.mock_id
        assert other_run(store, history[0].mock_id) is None
        comp = compare_runs(store, first.mock_id, second.mock_id)
        assert len(comp.rows) == len(first.plan.items)
        assert comp.rows[1][4] == "knew" and comp.rows[2][4] == "missed" and comp.rows[2][6] == "knew"
        assert "two runs side by side" in format_comparison(comp)
        with pytest.raises(ValueError, match="same seed"):
            compare_runs(store, first.mock_id, history[0].mock_id)
        cards, drills = study_next_items(load_finished(store, first.mock_id))
        assert wrong.card in cards and drills == [first.plan.items[0].ref]


async def test_mock_history_reopens_and_compares(tmp_path):
    clock = FixedClock()
    with open_store(tmp_path / "data") as store:
        first, wrong = _run(store, clock, 7, ["knew", "missed"])
        clock.advance(hours=2)
        _run(store, clock, 7, ["knew", "knew"])
    clock.advance(hours=1)
    app = make_app(tmp_path / "data", clock)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, app)
        await pilot.press("m")
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen

        async def history_listed(size):
            assert isinstance(screen, MockHistoryScreen) and app.screen is screen
            assert screen.query_one("#history-table", DataTable).row_count == 2

        await at_each_size(pilot, history_listed)
        screen.query_one("#history-table", DataTable).move_cursor(row=1)  # the older run
        await pilot.press("enter")
        await pilot.pause()

        async def scorecard_reopened(size):
            assert screen.open_id == first.mock_id
            assert wrong.title in rendered(screen.query_one("#scorecard-review"), 120)
            assert set(await footer_fits(pilot)) >= {"c", "n", "escape"}

        await at_each_size(pilot, scorecard_reopened)
        await pilot.press("c")
        await pilot.pause()

        async def runs_compared(size):
            table = rendered(screen.query_one("#history-compare"), size[0])
            assert "two runs side by side" in table and "missed" in table and "knew" in table

        await at_each_size(pilot, runs_compared)
        await pilot.press("escape")
        await pilot.pause()

        async def back_to_the_list(size):
            assert screen.view == "history-list"

        await at_each_size(pilot, back_to_the_list, back=False)


def test_mock_history_from_the_command_line(capsys, _private_data_dir):
    from tui.cli import main

    clock = FixedClock()
    with open_store(_private_data_dir) as store:
        first, wrong = _run(store, clock, 7, ["knew"])
        clock.advance(hours=1)
        second, _ = _run(store, clock, 7, ["missed"])
    assert main(["mock", "--history"]) == 0
    out = capsys.readouterr().out
    assert first.mock_id[:8] in out and second.mock_id[:8] in out and "seed 7" in out
    assert main(["mock", "--show", first.mock_id[:8]]) == 0
    out = capsys.readouterr().out
    assert "Score" in out and wrong.title in out and "The card's answer:" in out
    assert main(["mock", "--compare", first.mock_id[:8], second.mock_id[:8]]) == 0
    assert "two runs side by side" in capsys.readouterr().out
    assert main(["mock", "--show", "zzz"]) == 2
    assert "no finished mock matches" in capsys.readouterr().err

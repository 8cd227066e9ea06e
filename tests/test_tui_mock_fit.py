"""The mock screen at 80x24 and 100x30: the footer keeps back and finish, the coding prompt scrolls and
is reached by keyboard (f2), f3 widens, a revealed answer is scrolled into view, the scorecard wraps
under its own indent and the clock bar's time used matches the scorecard's."""
from __future__ import annotations

import pytest

from cards.plan.mock import plan_mock
from drills import get_drill
from tests.terminal_sizes import SIZES, at_each_size
from tui.app import PpoDrillApp
from tui.screens.mock import MockScreen
from tui.testing import FixedClock, ScriptedChecker
from tui.widgets.mock_scorecard import hanging_lines

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def started_mock(pilot, clock, seed: int = 11):
    app = pilot.app
    for _ in range(500):
        if app.session is not None:
            break
        await pilot.pause(0.01)
    screen = MockScreen(plan_mock(seed, 45))
    await app.push_screen(screen)
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert screen.mock.current.kind == "drill"
    return screen


def retry_pending(widget) -> bool:
    """True while a one-shot timer the widget set (a retry) has neither fired nor been stopped."""
    return any(t._repeat == 0 and t._task is not None and not t._task.done() for t in list(widget._timers))


def footer_keys(screen, width: int) -> set[str]:
    footer = screen.query_one("Footer")
    return {w.key_display for w in footer.query("FooterKey") if w.region.right <= width}


async def wait_footer(pilot, screen):
    for _ in range(100):
        if screen.query_one("Footer").query("FooterKey"):
            break
        await pilot.pause(0.02)
    await pilot.pause()


async def test_footer_prompt_scroll_and_wide_layout():
    clock = FixedClock()
    app = PpoDrillApp(clock=clock, checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await started_mock(pilot, clock)
        drill_view = screen._drill
        scroll = drill_view.prompt_scroll

        async def check(size):
            await wait_footer(pilot, screen)
            assert {"esc", "^r", "^f", "f2"} <= footer_keys(screen, size[0])
            assert scroll.virtual_size.height > scroll.size.height  # the prompt is longer than its pane
            assert app.focused is drill_view.editor
            scroll.scroll_home(animate=False)  # where the last size's pagedown left it
            await pilot.pause()
            assert scroll.scroll_y == 0
            await pilot.press("f2")
            assert app.focused is scroll
            await pilot.press("pagedown")
            await pilot.pause()
            assert scroll.scroll_y > 0
            await pilot.press("f2")
            assert app.focused is drill_view.editor
            await pilot.press("f3")  # the editor alone
            await pilot.pause()
            assert not screen.query_one("#drill-side").display and app.focused is drill_view.editor
            await pilot.press("f3")  # the prompt alone, as wide as the screen
            await pilot.pause()
            assert not drill_view.editor.display and app.focused is scroll
            assert scroll.size.width >= size[0] - 4
            await pilot.press("f3")
            await pilot.pause()
            assert drill_view.editor.display and screen.query_one("#drill-side").display

        await at_each_size(pilot, check, back=False)


async def test_a_revealed_answer_is_scrolled_into_view():
    clock = FixedClock()
    app = PpoDrillApp(clock=clock, checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await started_mock(pilot, clock)
        s = screen.mock
        item = s.current
        screen._drill.editor.load_text(get_drill(item.ref).solution(item.framework))
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert s.current.kind == "question"
        await pilot.press("t", *"the min keeps it pessimistic", "enter", *"and clipped")
        await pilot.press("ctrl+r")
        question = screen.query_one("#question-view")

        async def check(size):
            for _ in range(200):  # the view scrolls to the answer over a few refreshes, trying again every 0.05 s
                if not retry_pending(question):
                    break
                await pilot.pause(0.01)
            await pilot.pause()
            answer = screen.query_one("#question-answer")
            assert answer.display
            top, bottom = question.region.y, question.region.bottom
            assert top <= answer.region.y < bottom  # the answer's start is on screen
            # and not just its heading: its text fills the view (or all of it shows)
            assert bottom - answer.region.y >= min(answer.region.height, 6), (answer.region, question.region)
            await wait_footer(pilot, screen)
            assert {"esc", "1", "2", "3", "^f"} <= footer_keys(screen, size[0])

        await at_each_size(pilot, check, back=False)


async def test_scorecard_wraps_under_its_indent_and_agrees_with_the_clock_bar():
    clock = FixedClock()
    app = PpoDrillApp(clock=clock, checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await started_mock(pilot, clock)
        clock.advance(seconds=49.6)  # rounds to 0:50, truncates to 0:49
        await pilot.press("ctrl+f", "y")
        for _ in range(3):
            await pilot.pause()
        s = screen.mock

        async def check(size):
            assert s.finished
            bar = str(screen.query_one("#mock-clock").render())
            text = screen.query_one("#scorecard-view").text
            used = next(line for line in text.splitlines() if "time used" in line).split("time used ")[1].split()[0]
            assert f"{used} of 45:00 used" in bar, (bar, used)
            width = screen.query_one("#scorecard").content_region.width
            for line in hanging_lines(text, width):
                assert len(line) <= width
            mistake = "      mistake: " + "a very long mistake title that has to wrap " * 3
            wrapped = hanging_lines(mistake, 40)
            assert len(wrapped) > 1 and all(line.startswith(" " * 15) for line in wrapped[1:])

        await at_each_size(pilot, check, back=False)


async def test_keys_after_giving_up_go_to_the_question_not_the_hidden_editor():
    clock = FixedClock()
    app = PpoDrillApp(clock=clock, checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await started_mock(pilot, clock)
        editor = screen._drill.editor
        before = editor.text
        await pilot.press("ctrl+n", "y")
        for _ in range(3):
            await pilot.pause()
        given_up_focus = app.focused  # where keys went once the question opened
        typed = ""

        async def check(size):
            nonlocal typed
            assert screen.mock.current.kind == "question"
            app.set_focus(given_up_focus)  # as the question opened, the last size's typing undone
            await pilot.pause()
            await pilot.press("t", *"abc")
            typed += "abc"
            notes = screen.query_one("#question-notes")
            assert notes.text == typed and editor.text == before

        await at_each_size(pilot, check, back=False)


async def test_run_with_the_editor_alone_shows_the_results_and_the_next_item_opens_with_its_prompt():
    clock = FixedClock()
    app = PpoDrillApp(clock=clock, checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await started_mock(pilot, clock)
        drill_view = screen._drill
        side = screen.query_one("#drill-side")
        await pilot.press("f3")  # the editor alone
        await pilot.pause()

        async def editor_alone(size):
            assert not side.display

        await at_each_size(pilot, editor_alone)
        await pilot.press("ctrl+r")  # the starter: a failing run
        await app.workers.wait_for_complete()
        await pilot.pause()
        results = drill_view.results

        async def verdict_shown(size):
            assert side.display and results.region.height > 0  # the verdict is on screen
            assert "FAIL" in str(results.query_one("#verdict").render())
            assert app.focused is drill_view.editor

        await at_each_size(pilot, verdict_shown)
        await pilot.press("f3")  # the editor alone again, then give up: the next drill opens whole
        await pilot.pause()
        s = screen.mock
        first = s.current.index
        while s.current is not None and (s.current.kind != "drill" or s.current.index == first):
            await pilot.press("ctrl+n")
            if s.current.kind == "drill":
                await pilot.press("y")
            await pilot.pause()
        assert s.current is not None and s.current.kind == "drill"
        await pilot.pause()

        async def next_drill_whole(size):
            assert side.display and drill_view.prompt_scroll.region.height > 0
            prompt = drill_view.query_one("#drill-prompt").source
            assert prompt.startswith(f"## {s.current.index + 1}. ")

        await at_each_size(pilot, next_drill_whole, back=False)


async def test_a_seed_is_typed_replayed_from_the_history_and_the_runs_compared_in_the_app():
    from tui.screens.mock_history import MockHistoryScreen

    clock = FixedClock()
    app = PpoDrillApp(clock=clock, checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        for _ in range(500):
            if app.session is not None:
                break
            await pilot.pause(0.01)
        await pilot.press("m")
        await pilot.pause()
        screen = app.screen

        async def setup_shown(size):
            assert app.screen is screen and isinstance(screen, MockScreen) and not screen.started

        await at_each_size(pilot, setup_shown)
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("end", *["backspace"] * 10, *"-3", "enter")  # not a seed: said, the dialog stays
        await pilot.pause()

        async def seed_refused(size):
            assert app.screen is not screen and "from 0 to" in str(app.screen.query_one("#seed-error").render())

        await at_each_size(pilot, seed_refused)
        await pilot.press("backspace", "backspace", *"4242", "enter")
        await pilot.pause()

        async def seed_taken(size):
            assert app.screen is screen and screen.plan == plan_mock(4242, 45)
            assert "seed 4242" in str(screen.query_one("#mock-clock").render())

        await at_each_size(pilot, seed_taken)
        await pilot.press("enter")  # start, then finish at once
        await pilot.pause()
        await pilot.press("ctrl+f", "y")
        for _ in range(3):
            await pilot.pause()

        async def finished(size):
            assert screen.mock.finished

        await at_each_size(pilot, finished)
        await pilot.press("h")
        await pilot.pause()
        history = app.screen

        async def history_shown(size):
            assert isinstance(history, MockHistoryScreen) and app.screen is history

        await at_each_size(pilot, history_shown)
        await pilot.press("c")  # one run only: the notice says how to make a second, here
        await pilot.pause()

        async def replay_offered(size):
            assert any("press r to replay" in n.message for n in app._notifications)

        await at_each_size(pilot, replay_offered)
        await pilot.press("r")
        await pilot.pause()
        replay = app.screen

        async def replay_shown(size):
            assert isinstance(replay, MockScreen) and replay is not screen and not replay.started
            assert app.screen is replay
            assert screen not in app.screen_stack  # the finished mock gave its place to the replay
            assert replay.plan.seed == 4242 and replay.plan.items == screen.plan.items

        await at_each_size(pilot, replay_shown)
        clock.advance(minutes=2)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+f", "y")
        for _ in range(3):
            await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()

        async def compared(size):
            assert app.screen.view == "history-compare-view"

        await at_each_size(pilot, compared, back=False)


def _revealed_questions(card_ids):
    from cards.decks.loader import load_decks
    from cards.plan.mock_review import ItemReview, unwrap

    deckset = load_decks()
    items = []
    for i, cid in enumerate(card_ids):
        front, back = deckset.by_id[cid].text("en")
        items.append(ItemReview(i, "question", cid, front.splitlines()[0], "missed", 30.0, 60,
                                question=unwrap(front), typed="**typed as is**", card_answer=unwrap(back)))
    return items


async def test_the_scorecard_draws_the_cards_markdown():
    """A revealed card answer is drawn as the review draws it: **10** in bold, a code block as code, not
    the Markdown's marks; what the candidate typed is shown exactly as typed."""
    from tui.widgets.mock_scorecard import MockScorecard

    clock = FixedClock()
    app = PpoDrillApp(clock=clock, checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await started_mock(pilot, clock)
        await pilot.press("ctrl+f", "y")
        for _ in range(3):
            await pilot.pause()
        card = screen.query_one(MockScorecard)
        from cards.plan.mock_review import ItemReview

        drill = ItemReview(2, "drill", "gae", "GAE", "failed", 60.0, 300, code="x = 1\n",
                           hints=("Sweep `for t in reversed(range(T))`: **backwards**.",))
        card.show("Mock interview scorecard",
                  _revealed_questions(["numbers-epochs", "value-clipped-loss"]) + [drill])
        await pilot.pause()
        from rich.console import Console
        import os

        async def check(size):
            console = Console(width=size[0] - 4, record=True, file=open(os.devnull, "w"))
            console.print(card.query_one("#scorecard-review").content)
            text = console.export_text()
            assert "MuJoCo" in text and "10" in text
            assert "**10**" not in text and "```" not in text
            assert "**typed as is**" in text
            assert "def ppo_value_loss" in text  # the answer's code block, drawn as code
            assert "for t in reversed(range(T))" in text and "`" not in text  # hints drawn too

        await at_each_size(pilot, check, back=False)


async def test_the_start_panel_says_the_clock_starts_on_enter():
    """The bar says "not started", and the panel agrees: the clock starts when you press enter."""
    app = PpoDrillApp(clock=FixedClock(), checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        for _ in range(500):
            if app.session is not None:
                break
            await pilot.pause(0.01)
        await pilot.press("m")
        await pilot.pause()
        screen = app.screen

        async def check(size):
            assert app.screen is screen
            assert "not started" in str(screen.query_one("#mock-clock").render())
            text = " ".join(screen.query_one("#setup-text").source.split())
            assert "The clock has not started: it starts when you press **enter**" in text
            assert "runs while this screen is open" not in text

        await at_each_size(pilot, check, back=False)

"""The app's user flows, driven with Pilot on a temp data folder, a fixed clock and the scripted
checker (no torch): review, drill pass, drill named mistake, paste-and-check, quit mid-drill, a dead
checker, a corrupt progress file, and the workspace keys."""
from __future__ import annotations

import os
import threading
from datetime import timedelta

import pytest
from textual.widgets import DataTable, Select, TextArea

from cards.progress import drafts
from cards.progress.paths import data_dir
from checker.service import CheckerUnavailable
from drills import get_drill, load_drills
from tui.app import PpoDrillApp
from tui.screens.code_view import CodeScreen
from tui.screens.confirm import ConfirmScreen
from tui.screens.dashboard import DashboardScreen
from tui.screens.review import ReviewScreen
from tui.screens.workspace import WorkspaceScreen
from tui.testing import FIXED_START, FixedClock, ScriptedChecker
from tui.widgets.markdown_text import MarkdownText

SIZE = (100, 30)
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def make_app(clock=None, checker=None):
    checker = checker or ScriptedChecker()
    app = PpoDrillApp(clock=clock or FixedClock(), checker_factory=lambda: checker, fuzz=False)
    app.animation_level = "none"  # Pilot waits out every animation after each key
    return app


def text_of(widget) -> str:
    return str(widget.render())


def plain(static) -> str:
    """A Static's content (markup, Text or a Rich Group) as plain text."""
    from rich.console import Console

    console = Console(width=100, record=True, file=open(os.devnull, "w"))
    console.print(static.content)
    return console.export_text()


async def ready(pilot) -> None:
    """Wait until the app has loaded its session (it does so right after the first frame)."""
    for _ in range(500):
        if pilot.app.session is not None:
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never loaded its session")


async def settle(pilot, app):
    """Let workers finish and their results reach the screen."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def open_drill(pilot, app, drill_id: str, via_keys: bool = False) -> WorkspaceScreen:
    """Open a drill's workspace: through the drill list with keys, or directly (each key and each screen
    a key opens costs its handling and repaints, so only the flow tests that are about navigation use keys)."""
    await pilot.pause()
    if via_keys:
        await pilot.press("d")
        table = app.screen.query_one("#drill-table", DataTable)
        table.move_cursor(row=table.get_row_index(drill_id))
        await pilot.press("enter")
    else:
        app.push_screen(WorkspaceScreen(app.session.drill(drill_id)))
    await pilot.pause()
    assert isinstance(app.screen, WorkspaceScreen)
    return app.screen


async def test_review_a_card_and_see_the_schedule_change():
    clock = FixedClock()
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        card = screen.card
        assert not screen.query_one("#review-back").display
        assert not screen.check_action("undo", ())  # nothing rated yet: no Undo in the footer
        await pilot.press("space")
        labels = [str(b.label) for b in screen.query("RatingBar Button")]
        assert labels == ["1 Again · 1m", "2 Hard · 6m", "3 Good · 10m", "4 Easy · 8d"]
        await pilot.press("3")
        state = app.session.store.card_state(card.id)
        assert state is not None and screen.card.id != card.id
        assert app.session.store.card_states()[card.id][0] == clock.now + timedelta(minutes=10)
        assert "Good, due in 10m" in text_of(screen.query_one("#review-prompt"))  # under the next card
        assert screen.check_action("undo", ())
        await pilot.press("u")  # undo: the card is new again and shown first
        assert app.session.store.card_state(card.id) is None
        assert screen.card.id == card.id and not screen.revealed
        assert not screen.check_action("undo", ())  # the one rating is undone


async def test_language_toggle_is_saved_and_shows_chinese():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("r")
        card = app.screen.card
        await pilot.press("l")
        assert app.session.store.get_setting("language") == "zh"
        assert app.screen.query_one("#review-front", MarkdownText).source == card.text("zh")[0]


async def test_open_a_drill_type_the_right_answer_and_pass():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae", via_keys=True)
        ws.editor.load_text(get_drill("gae").solution("numpy"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert ws.results.report.passed
        assert text_of(ws.results.query_one("#verdict")).startswith("PASS  gae (numpy)")
        attempts = app.session.store.attempts("gae")
        assert [(a.passed, a.framework, a.source) for a in attempts] == [(True, "numpy", "app")]
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot, app)  # the dashboard gathers its numbers in a worker
        assert isinstance(app.screen, DashboardScreen)
        table = app.screen.query_one("#dash-drills", DataTable)
        assert str(table.get_row("gae")[2]) == "passed"


async def test_a_wrong_answer_names_the_mistake_and_its_card_comes_back():
    app = make_app()
    mistake = next(m for m in get_drill("gae").mistakes if m.id == "gae-missing-gamma")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae")
        ws.editor.load_text(mistake.source("numpy"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert not ws.results.report.passed
        assert ws.results.report.mistake_ids == ["gae-missing-gamma"]
        assert ws.results.cards == [mistake.card]
        body = plain(ws.results.query_one("#body"))
        assert mistake.title in body and f"card: {mistake.card} — press ctrl+l" in body
        assert "expected out" in body and "[1.25, 2.0]" in body  # the counterexample table
        reviews = app.session.store.reviews(card_id=mistake.card)
        assert [(r.rating, r.source) for r in reviews] == [(1, "checker")]
        await pilot.press("ctrl+l")  # jump to the named mistake's card
        assert isinstance(app.screen, ReviewScreen) and app.screen.card.id == mistake.card


async def test_paste_and_check_detects_the_drill():
    app = make_app()
    mistake = next(m for m in get_drill("policy-loss").mistakes if m.source("numpy"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("p")
        app.screen.query_one("#paste-editor", TextArea).load_text(mistake.source("numpy"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        panel = app.screen.query_one("#paste-results")
        assert panel.report.drill == "policy-loss" and panel.report.mistake_ids == [mistake.id]
        assert app.session.store.attempts("policy-loss")[0].source == "app"


async def test_paste_loads_a_file_and_reports_an_unreadable_one(tmp_path):
    app = make_app()
    answer = tmp_path / "mine.py"
    answer.write_text(get_drill("value-loss").solution("numpy"), encoding="utf-8")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("p", "ctrl+o")
        app.screen.query_one("#paste-path").value = str(tmp_path / "missing.py")
        await pilot.press("enter")
        assert app.screen.query_one("#paste-editor", TextArea).text == ""
        app.screen.query_one("#paste-path").value = str(answer)
        await pilot.press("enter", "ctrl+r")
        await settle(pilot, app)
        assert app.screen.query_one("#paste-results").report.passed


async def test_quit_mid_drill_and_find_the_code_again():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "policy-loss")
        await pilot.press("ctrl+e", "enter", *"x=1")
        typed = ws.editor.text
        await pilot.press("ctrl+q")  # before the autosave delay has passed
    assert drafts.load_draft("policy-loss", "numpy") == typed
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "policy-loss")
        assert ws.editor.text == typed
        assert "saved answer" in text_of(ws.query_one("#ws-framework"))


async def test_the_drill_clock_carries_on_when_reopened_and_restarts_after_a_pass():
    from tui.widgets.countdown import Countdown

    clock = FixedClock()
    app = make_app(clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae")
        clock.advance(seconds=150)
        assert ws.query_one(Countdown).elapsed() == 150
        await pilot.press("escape")  # back to the dashboard: the time is kept
        await pilot.pause()
    assert drafts.load_clock("gae") == 150
    app = make_app(clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae")
        clock.advance(seconds=30)
        assert ws.query_one(Countdown).elapsed() == 180  # 2.5 min earlier + 0.5 min now
        ws.editor.load_text(get_drill("gae").solution("numpy"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert ws.results.report.passed
        assert app.session.store.attempts("gae")[-1].elapsed_s == 180  # the whole attempt, both sittings
        assert ws.query_one(Countdown).elapsed() == 0  # the next attempt starts afresh
    assert drafts.load_clock("gae") == 0


async def test_typing_is_saved_without_leaving_the_drill(monkeypatch):
    from tui.screens import workspace

    monkeypatch.setattr(workspace, "SAVE_DELAY_S", 0.05)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "value-loss")
        await pilot.press(*"#n")
        for _ in range(40):  # the debounce timer fires within a few event-loop turns
            if drafts.load_draft("value-loss", "numpy") == ws.editor.text:
                break
            await pilot.pause(0.05)
        assert drafts.load_draft("value-loss", "numpy") == ws.editor.text
        assert ws.editor.text.startswith("#n")
        assert not list(drafts.draft_path("value-loss", "numpy").parent.glob("*.tmp"))


async def test_the_app_survives_a_dead_checker():
    checker = ScriptedChecker(fail_with=CheckerUnavailable("the checker worker stopped: boom"))
    app = make_app(checker=checker)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae")
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert ws.results.report is None
        assert text_of(ws.results.query_one("#verdict")) == "The checker is not available"
        assert "boom" in plain(ws.results.query_one("#body"))
        assert app.session.store.attempts() == []
        await pilot.press("ctrl+t")  # still responsive
        assert ws.hint_level == 1


async def test_a_second_run_supersedes_the_first():
    gate = threading.Event()

    class Slow(ScriptedChecker):
        def check(self, source, drill=None, framework=None, seed=0):
            if "FIRST" in source:
                gate.wait(5)
            return super().check(source, drill, framework, seed)

    app = make_app(checker=Slow())
    solution = get_drill("gae").solution("numpy")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae")
        ws.editor.load_text("# FIRST\n" + get_drill("gae").starter("numpy"))
        await pilot.press("ctrl+r")
        ws.editor.load_text(solution)
        await pilot.press("ctrl+r")
        for _ in range(1000):  # the second run's verdict is shown while the first is still held
            if ws.results.report is not None:
                break
            await pilot.pause(0.01)
        assert ws.results.report is not None
        gate.set()
        await settle(pilot, app)
        assert ws.results.report.passed
        assert [a.passed for a in app.session.store.attempts("gae")] == [True]


async def test_a_corrupt_progress_file_is_reported_and_left_untouched():
    path = data_dir() / "progress.sqlite3"
    garbage = b"this is not a database\x00" * 10
    path.write_bytes(garbage)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.pause()
        assert app.session.store is None
        assert "not a ppo-drill progress database" in text_of(app.screen.query_one("#dash-cards"))
        await pilot.press("r")
        assert "Progress is not available" in app.screen.query_one("#review-front", MarkdownText).source
        await pilot.press("escape")
        ws = await open_drill(pilot, app, "gae")
        ws.editor.load_text(get_drill("gae").solution("numpy"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert ws.results.report.passed  # checks still work; drafts still save
    assert path.read_bytes() == garbage
    assert drafts.load_draft("gae", "numpy") == get_drill("gae").solution("numpy")


async def test_hints_timer_framework_and_solution_keys():
    clock = FixedClock()
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae")
        await pilot.press("ctrl+t", "ctrl+t")
        assert f"Hint 2 of {len(get_drill('gae').hints)}" in ws.query_one("#ws-hints").source
        clock.advance(minutes=11)
        ws.query_one("#ws-clock")._tick()
        assert text_of(ws.query_one("#ws-clock")) == "⏱ +1:00 over ^b"
        await pilot.press("ctrl+b")
        clock.advance(minutes=5)
        assert text_of(ws.query_one("#ws-clock")) == "⏸ +1:00 over (paused) ^b"
        await pilot.press("ctrl+b")
        await pilot.press("ctrl+f")
        assert ws.framework == "torch" and ws.editor.text == get_drill("gae").starter("torch")
        await pilot.press("ctrl+g")  # no attempt yet: asks first
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.screen is ws
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        await pilot.press("ctrl+g")  # tried now: it still asks (a stray key must not spoil the practice)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, CodeScreen)
        assert app.screen.query_one(TextArea).text == get_drill("gae").solution("torch")


async def test_reset_asks_then_restores_the_starter():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "fix-clip-range")
        await pilot.press("#", "m")
        await pilot.press("ctrl+n")
        await pilot.press("n")
        assert "#m" in ws.editor.text
        await pilot.press("ctrl+n", "y")
        await pilot.pause()
        starter = get_drill("fix-clip-range").starter("numpy")
        assert ws.editor.text == starter and drafts.load_draft("fix-clip-range", "numpy") == starter


async def test_drill_list_filters_and_marks_pitfalls():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("d")
        catalogue = load_drills()
        table = app.screen.query_one("#drill-table", DataTable)
        assert [k.value for k in table.rows] == [d.id for d in catalogue]
        for d in catalogue:
            assert str(table.get_row(d.id)[1]) == ("fix-the-bug" if d.is_pitfall else
                                                   "write tests" if d.is_test else
                                                   "read the run" if d.is_run else "write")
        app.screen.query_one("#filter-framework", Select).value = "torch"
        app.screen.query_one("#filter-difficulty", Select).value = "medium"
        await pilot.pause()
        assert [k.value for k in table.rows] == [
            d.id for d in catalogue if "torch" in d.frameworks and d.difficulty == "medium"]
        await pilot.press("c")
        app.screen.query_one("#filter-topic", Select).value = "gae"
        await pilot.pause()
        assert [k.value for k in table.rows] == [d.id for d in catalogue if d.topic == "gae"]
        app.session.store.record_attempt("gae", framework="numpy", started_at=FIXED_START, passed=True)
        app.screen.query_one("#filter-status", Select).value = "passed"
        await pilot.pause()
        assert [k.value for k in table.rows] == ["gae"]


async def test_mock_and_stats_keys_open_their_screens_and_escape_returns():
    from tui.screens.mock import MockScreen
    from tui.screens.stats import StatsScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for key, screen in (("m", MockScreen), ("s", StatsScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen), (key, type(app.screen).__name__)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, DashboardScreen), (key, type(app.screen).__name__)
        assert app.is_running


async def test_help_and_command_palette_open_screens():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("f1")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {"Open review", "Open drills", "Open paste", "Open help"} <= set(titles)


async def test_the_chosen_theme_is_remembered():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.pause()
        app.theme = "textual-light"
        assert app.session.store.get_setting("theme") == "textual-light"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.pause()
        assert app.theme == "textual-light"


async def test_an_unreadable_saved_answer_is_set_aside_not_overwritten():
    path = drafts.draft_path("gae", "numpy")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe not utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        ws = await open_drill(pilot, app, "gae")
        assert ws.editor.text == get_drill("gae").starter("numpy")
        await pilot.press("x")
        ws.save_now()
    assert (path.parent / "numpy.py.unreadable").read_bytes() == b"\xff\xfe not utf-8"
    assert drafts.load_draft("gae", "numpy").startswith("x")


async def test_a_broken_drill_file_is_named_and_the_cards_still_work(monkeypatch):
    import tui.session
    from drills import DrillContentError

    def broken():
        raise DrillContentError("drills/gae/drill.yaml", "target_minutes", "must be a positive integer")

    monkeypatch.setattr(tui.session, "load_drills", broken)  # where the session looks it up
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.pause()
        assert app.session.drills == []
        assert any("drills/gae/drill.yaml" in n.message for n in app._notifications)
        await pilot.press("r")
        assert isinstance(app.screen, ReviewScreen) and app.screen.card is not None


async def test_the_side_pane_scrolls_from_the_keyboard():
    """alt+down / alt+up page the prompt or the results while the editor keeps the cursor; with the
    pane alone (f3 twice) it takes the keys, so page keys and end scroll it."""
    from textual.containers import VerticalScroll

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        screen = await open_drill(pilot, app, "actor-loss")
        prompt = screen.query_one("#tab-prompt VerticalScroll", VerticalScroll)
        assert prompt.max_scroll_y > 0 and prompt.scroll_y == 0
        await pilot.press("alt+down")
        await pilot.pause()
        assert prompt.scroll_y > 0 and app.focused is screen.editor
        await pilot.press("alt+up")
        await pilot.pause()
        assert prompt.scroll_y == 0
        mistake = get_drill("actor-loss").mistakes[0]
        screen.editor.load_text(mistake.source("torch"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        results = screen.results
        assert screen.query_one("#ws-side").active == "tab-results" and results.max_scroll_y > 0
        await pilot.press("alt+down")
        await pilot.pause()
        assert results.scroll_y > 0 and app.focused is screen.editor
        await pilot.press("f3", "f3")  # the pane alone
        await pilot.pause()
        assert app.focused is results
        await pilot.press("end")
        await pilot.pause()
        assert results.scroll_y == results.max_scroll_y
        await pilot.press("home")
        await pilot.pause()
        assert results.scroll_y == 0


async def test_practising_ahead_on_a_passed_drill_opens_a_fresh_starter():
    """The saved passing answer is not what a preview opens (re-running it is reading, not recall), and
    typing in the preview never overwrites it; a passed practice is discarded, so the next starts fresh."""
    drafts.save_draft("gae", "numpy", get_drill("gae").solution("numpy"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        app.push_screen(WorkspaceScreen(app.session.drill("gae"), preview=True))
        await pilot.pause()
        ws = app.screen
        assert ws.editor.text == get_drill("gae").starter("numpy")
        assert "saved answer" not in text_of(ws.query_one("#ws-framework"))
        ws.editor.load_text(get_drill("gae").starter("numpy") + "\n# half done\n")
        ws.save_now()
        await pilot.press("escape")
        await pilot.pause()
        assert drafts.load_draft("gae", "numpy") == get_drill("gae").solution("numpy"), "kept as it was"
        app.push_screen(WorkspaceScreen(app.session.drill("gae"), preview=True))
        await pilot.pause()
        ws = app.screen
        assert ws.editor.text.endswith("# half done\n"), "an unfinished practice is reopened"
        ws.editor.load_text(get_drill("gae").solution("numpy"))
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert ws.results.report.passed
        assert drafts.load_draft("gae", "numpy", drafts.practice_root()) is None, "a passed practice is done"

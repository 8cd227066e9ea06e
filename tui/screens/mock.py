"""`MockScreen`: a timed mock interview in the app (dashboard key `m`, `ppo-drill mock`).

All timing and recording is `cards.plan.mock.MockSession`'s and all scoring `score_session()`'s; this
screen only shows them. It opens on a start panel (minutes, seed, continue an unfinished mock) so the
clock starts when the candidate says so; then shows the overall clock and the item's soft clock, puts
coding items in an editor with a run-checks key (the app's `CheckRunner` worker, never the UI thread),
shows questions with a reveal key and self-grade keys, covers the work while paused (a pause is a
pause, not free thinking time), and ends on the scorecard. Answers are saved as typed, under the
session's folder.

Like an interview, a run of the checks shows only pass or fail and the smallest failing input; the
named mistake, its explanation and the hints wait for the scorecard, which reveals everything (typed
answers beside the cards', code against the model answer) and queues its "study next" into today's
plan with one key. The "coached mocks" setting keeps the checker's full verdict during the mock.
`h` opens the mock history (reopen any scorecard, compare two runs of a seed).

This file is the screen's wiring only (keys, the session's steps, saving answers); each area is a
widget in `tui/widgets/`: `MockClock`, `MockSetup`, `MockDrill`, `MockQuestion`, `MockScorecard`.
"""
from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any, Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Static, TextArea

from cards.decks.loader import load_decks
from cards.plan.interview import queue_study_next
from cards.plan.mock import (
    MAX_MINUTES,
    MIN_MINUTES,
    MockPlan,
    MockSession,
    MockStateError,
    answer_root,
    format_scorecard,
    plan_mock,
    resume_mock,
    score_session,
    start_mock,
    unfinished_mocks,
)
from cards.plan.mock_review import review_items, study_next_items
from cards.progress import drafts
from cards.progress.store import StoreError, open_store
from checker.report import report_from_json
from drills import get_drill
from tui.checking import CheckRunner
from tui.screens.confirm import ConfirmScreen
from tui.screens.seed_dialog import SeedScreen
from tui.widgets.footer import KeyFooter
from tui.widgets.mock_clock import MockClock
from tui.widgets.mock_drill import MockDrill
from tui.widgets.mock_question import MockQuestion
from tui.widgets.mock_scorecard import MockScorecard
from tui.widgets.mock_setup import MockSetup
from tui.widgets.textual_guards import Header

TOUCH_EVERY_S = 15
SAVE_DELAY_S = 0.4


class MockScreen(CheckRunner, Screen):
    """A mock over `plan` (or a new seeded plan, or a reopened `mock`).

    `self.mock` is the mock session being sat (`MockSession`, None until it starts); the app's
    `tui.session.Session` (store, decks, scheduler, settings) is `self._app_session`."""

    DEFAULT_CSS = """
    MockScreen #mock-body { height: 1fr; }
    MockScreen #paused-view { padding: 1 2; }
    """

    # Short labels, back first: the footer must fit 80 columns with every key a running item offers.
    BINDINGS = [
        Binding("escape", "back", "Back", priority=True, tooltip="back (an unfinished mock is kept: c continues it)"),
        Binding("enter", "start", "Start", tooltip="start panel: start the mock (the clock starts now)"),
        Binding("plus,equals_sign", "minutes(5)", "+5 min", tooltip="start panel: five minutes more"),
        Binding("minus", "minutes(-5)", "-5 min", tooltip="start panel: five minutes less"),
        Binding("r", "reseed", "New seed", tooltip="start panel: draw another seed"),
        Binding("s", "choose_seed", "Seed", tooltip="start panel: type a seed to replay (the same seed gives "
                "the same session)"),
        Binding("c", "continue", "Continue unfinished", tooltip="start panel: continue your unfinished mock"),
        Binding("h", "history", "History", tooltip="mock history: reopen any scorecard, compare two runs of a "
                "seed, replay one"),
        Binding("ctrl+r", "run_checks", "Run", priority=True, tooltip="coding item: run the checks"),
        Binding("ctrl+r", "reveal", "Reveal", priority=True, tooltip="question: reveal the card's answer"),
        Binding("space", "reveal", "Reveal answer", show=False, tooltip="question: reveal the card's answer"),
        Binding("t", "type_answer", "Type", tooltip="question: type your answer in the notes box before revealing"),
        # as the card review's 1 Again / 2 Hard / 3 Good: the higher key, the better you knew it
        Binding("1", "grade('missed')", "Missed", tooltip="question: you missed it (as a card's Again)"),
        Binding("2", "grade('partly')", "Partly", tooltip="question: you partly knew it (as Hard)"),
        Binding("3", "grade('knew')", "Knew it", tooltip="question: you knew it (as Good)"),
        Binding("f2", "focus_prompt", "Prompt", tooltip="coding item: move to the prompt (arrows and page keys "
                "scroll it) and back to the editor"),
        Binding("f3", "layout", "Wide", tooltip="coding item: the editor alone, the prompt alone, side by side"),
        Binding("n", "queue_study_next", "Study next → today",
                tooltip="on the scorecard: put its \"study next\" cards and drills on today's plan"),
        Binding("ctrl+b", "toggle_pause", "Pause", priority=True, tooltip="pause / resume (listed on the scorecard)"),
        Binding("ctrl+n", "next_item", "Skip", priority=True, tooltip="give up the drill (asks first) / skip the question"),
        Binding("ctrl+f", "finish", "Finish", priority=True, tooltip="finish now and see the scorecard (asks first)"),
    ]

    def __init__(self, plan: MockPlan | None = None, *, mock: MockSession | None = None,
                 seed: int | None = None, minutes: int = 45, framework: str | None = None,
                 tick_s: float = 1.0) -> None:
        super().__init__()
        self.mock = mock
        self.plan = plan if plan is not None else (mock.plan if mock else None)
        self._seed = self.plan.seed if self.plan else (seed if seed is not None else secrets.randbelow(1_000_000))
        self._minutes = self.plan.minutes if self.plan else minutes
        self._framework = framework
        self._tick_s = tick_s
        self._ticks = 0
        self._shown_item: int | None = None
        self._revealed = False
        self._save_timer = None
        self._store = None
        self._unfinished_ids: list[str] | None = None
        self._coached = False
        self._queued = False

    # -- the app's `Session` (store, clock, language), with fallbacks for a bare host app ----

    @property
    def _app_session(self) -> Any:
        return getattr(self.app, "session", None)

    def _clock(self) -> datetime:
        clock: Callable[[], datetime] | None = getattr(self.app, "clock", None)
        return clock() if clock else datetime.now(timezone.utc)

    def _lang(self) -> str:
        return getattr(self._app_session, "language", "en")

    def _deckset(self) -> Any:
        deckset = getattr(self._app_session, "deckset", None)
        if deckset is None or not deckset.cards:
            deckset = load_decks()
        return deckset

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield MockClock("", id="mock-clock")
        with ContentSwitcher(initial="setup-view", id="mock-body"):
            yield MockSetup(id="setup-view")
            self._drill = MockDrill(id="drill-view")  # kept by reference: answers are saved while unmounting too
            yield self._drill
            yield MockQuestion(id="question-view")
            yield Static("[b]PAUSED[/b]\n\nThe clock is stopped and the pause is recorded on the "
                         "scorecard. Your work is hidden until you resume: [b]ctrl+b[/b].", id="paused-view")
            yield MockScorecard(id="scorecard-view")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._store = getattr(self._app_session, "store", None)
        if self._store is None and self._app_session is None:  # a bare host app (tests, demos)

            self._store = open_store()
            self._own_store = True
        if self.mock is not None:
            self.mock.clock = self._clock
        self._coached = bool(getattr(self._app_session, "coached_mocks", False))
        self._show_setup()
        self._refresh()
        self.set_interval(self._tick_s, self._on_tick)

    def on_unmount(self) -> None:
        self._save_answer_now()
        if self.mock is not None and not self.mock.finished:
            try:
                self.mock.touch()
            except StoreError:
                pass  # leaving anyway; the last saved step stands
        if getattr(self, "_own_store", False):
            self._store.close()

    @property
    def started(self) -> bool:
        return self.mock is not None

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Offer only the keys that fit what is on screen."""
        s = self.mock
        if action in ("start", "minutes", "reseed", "choose_seed"):
            return not self.started
        if action == "continue":
            return not self.started and bool(self._unfinished_ids)
        if action == "history":
            return self._store is not None and (s is None or s.finished)
        if action == "queue_study_next":
            return s is not None and s.finished and self._store is not None and not self._queued
        if s is None:  # the start panel: only its own keys (and back)
            return action not in ("run_checks", "reveal", "grade", "toggle_pause", "next_item", "finish",
                                  "type_answer", "focus_prompt", "layout")
        item = None if s.finished else s.current
        running = not s.finished and not s.paused
        if action in ("run_checks", "focus_prompt", "layout"):
            return running and item is not None and item.kind == "drill"
        if action in ("reveal", "type_answer"):
            return running and item is not None and item.kind == "question" and not self._revealed
        if action == "grade":
            return running and item is not None and item.kind == "question" and self._revealed
        if action in ("toggle_pause", "finish", "next_item"):
            return not s.finished and (action == "toggle_pause" or not s.paused)
        return True

    # -- the start panel -------------------------------------------------------------------

    def _unfinished(self) -> list[str]:
        """Saved sessions never finished (read once per screen: check_action runs often)."""
        if self._unfinished_ids is None:
            self._unfinished_ids = unfinished_mocks(self._store) if self._store is not None else []
        return self._unfinished_ids

    def _show_setup(self) -> None:
        if self.started:
            return
        if self.plan is None or (self.plan.seed, self.plan.minutes) != (self._seed, self._minutes):
            try:
                self.plan = plan_mock(self._seed, self._minutes, framework=self._framework)
            except ValueError as exc:
                self.notify(str(exc), severity="error")
                return
        self.query_one(MockSetup).show(self.plan, self._minutes, self._seed, saved=self._store is not None,
                                       can_continue=bool(self._unfinished()), coached=self._coached)

    def action_start(self) -> None:
        if self.started or self.plan is None:
            return
        s = getattr(self._app_session, "scheduler", None)
        try:
            self.mock = start_mock(self.plan, self._store, clock=self._clock,
                                 fuzz=getattr(self.app, "fuzz", True), scheduler=s)
        except StoreError as exc:
            self.notify(f"Cannot start the mock: {exc}", severity="error", timeout=20)
            return
        self._after_change()

    def action_minutes(self, delta: int) -> None:
        self._minutes = max(MIN_MINUTES, min(MAX_MINUTES, self._minutes + delta))
        self._show_setup()
        self._refresh()

    def action_reseed(self) -> None:
        self._seed = secrets.randbelow(1_000_000)
        self._show_setup()
        self._refresh()

    def action_choose_seed(self) -> None:
        """Type the seed to plan from (replaying a past mock, or one a friend used)."""
        if self.started:
            return

        def chosen(seed: int | None) -> None:
            if seed is not None and not self.started:
                self._seed = seed
                self._show_setup()
                self._refresh()

        self.app.push_screen(SeedScreen(self._seed), chosen)

    def action_continue(self) -> None:
        ids = self._unfinished()
        if not ids or self.started:
            return
        try:
            self.mock = resume_mock(self._store, ids[-1], clock=self._clock,
                                   fuzz=getattr(self.app, "fuzz", True),
                                   scheduler=getattr(self._app_session, "scheduler", None))
        except (KeyError, ValueError, StoreError) as exc:
            self.notify(str(exc), title="Cannot continue that mock", severity="error", timeout=20)
            return
        self.plan = self.mock.plan
        self._after_change()

    # -- clock -----------------------------------------------------------------------------

    def _on_tick(self) -> None:
        s = self.mock
        self._ticks += 1
        if s is not None and not s.finished:
            if self._act(s.tick):
                self.notify("Time is up: the session is finished.", severity="warning")
                return
            if self._ticks % TOUCH_EVERY_S == 0:
                self._act(s.touch)
        self._refresh()

    def _refresh(self) -> None:
        s = self.mock
        self.query_one(MockClock).show(s, self._minutes, self._seed)
        item = s.current if s is not None and not s.finished else None
        body = self.query_one("#mock-body", ContentSwitcher)
        if s is None:
            body.current = "setup-view"
        elif s.finished:
            if body.current != "scorecard-view":
                self.query_one(MockScorecard).show(format_scorecard(score_session(s)),
                                                   review_items(s, self._deckset(), self._lang()))
                body.current = "scorecard-view"
                self.query_one(MockScorecard).focus()
        elif s.paused:
            body.current = "paused-view"
        elif item is not None:
            if item.index != self._shown_item:
                self._show_item(item)
            body.current = "drill-view" if item.kind == "drill" else "question-view"

    def _after_change(self) -> None:
        self._refresh()
        self.refresh_bindings()
        self.call_after_refresh(self._focus_current)

    def _focus_current(self) -> None:
        """Keep the keyboard in the view on screen: a dialog closing (give up, finish) hands focus
        back to whatever had it before, which may be the editor of a drill no longer shown, and keys
        typed there would land in a hidden answer."""
        if not self.is_attached or self.app.screen is not self:
            return
        body = self.query_one("#mock-body", ContentSwitcher)
        view = body.get_child_by_id(body.current) if body.current else None
        focused = self.app.focused
        if view is None or (focused is not None and (focused is view or view in focused.ancestors)):
            return
        if view is self._drill:
            self._drill.editor.focus()
        elif view.can_focus:
            view.focus()
        else:
            self.set_focus(None)

    # -- items -----------------------------------------------------------------------------

    def _show_item(self, item) -> None:
        self._save_answer_now()
        self._shown_item = item.index
        self._revealed = False
        if item.kind == "drill":
            drill = get_drill(item.ref)
            prompt = drill.prompt_zh if self._lang() == "zh" and drill.prompt_zh else drill.prompt
            saved = self._load_answer(item)
            self._drill.show(item, drill.title, prompt,
                             saved if saved is not None else drill.starter(item.framework))
            self._show_last_report(item)
        else:
            card = self._deckset().by_id.get(item.ref)
            front, back = card.text(self._lang()) if card else (item.title, "(this card left the decks)")
            self.query_one(MockQuestion).show(item.index, front, back, item.ref)
        self.refresh_bindings()

    def _show_last_report(self, item) -> None:
        """A drill's last run of the checks, when the mock is continued after leaving it."""
        result = next((r for r in self.mock.results if r.index == item.index), None)
        if result is None or not result.last_report:
            return
        try:
            report = report_from_json(result.last_report)
        except (KeyError, TypeError, ValueError):
            return  # a record this version cannot read: the panel starts empty, as before a run
        self._drill.results.show_report(report, reveal=self._coached)

    def _load_answer(self, item) -> str | None:
        try:
            return drafts.load_draft(item.ref, item.framework, root=answer_root(self.mock.mock_id))
        except (OSError, ValueError):
            return None

    @on(TextArea.Changed, "#drill-editor")
    def _changed(self) -> None:
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(SAVE_DELAY_S, self._save_answer_now)

    def _save_answer_now(self) -> None:
        s = self.mock
        if s is None or self._shown_item is None:
            return
        item = s.plan.items[self._shown_item]
        if item.kind != "drill":
            return
        text = self._drill.editor.text
        if text == self._load_answer(item) or not text.strip():
            return
        try:
            drafts.save_draft(item.ref, item.framework, text, root=answer_root(s.mock_id))
        except OSError as exc:
            self.notify(f"Could not save your answer: {exc}", severity="error")

    # -- actions ---------------------------------------------------------------------------

    def _act(self, fn: Callable[[], Any]) -> Any:
        """Run a session step; a refused step or a failed write is a message, never a crash."""
        try:
            return fn()
        except MockStateError as exc:
            self.notify(str(exc), severity="warning")
            return None
        except StoreError as exc:
            self.notify(f"This step was not saved: {exc}", severity="error", timeout=20)
            return None
        finally:
            self._after_change()

    def action_toggle_pause(self) -> None:
        s = self.mock
        if s is not None:
            self._act(s.resume if s.paused else s.pause)

    def action_focus_prompt(self) -> None:
        self._drill.focus_prompt()

    def action_layout(self) -> None:
        self._drill.cycle_layout()

    def action_type_answer(self) -> None:
        self.query_one(MockQuestion).notes.focus()

    def action_reveal(self) -> None:
        self._revealed = True
        self.query_one(MockQuestion).reveal()
        self.refresh_bindings()

    def action_grade(self, grade: str) -> None:
        if self._revealed:
            answer = self.query_one(MockQuestion).notes.text
            self._act(lambda: self.mock.grade_question(grade, answer))

    def action_next_item(self) -> None:
        s = self.mock
        item = s.current if s is not None else None
        if item is None:
            return
        if item.kind == "question":
            self._act(s.skip)
            return

        def done(yes: bool | None) -> None:
            if yes:
                self._save_answer_now()
                self._act(lambda: s.give_up(code=self._drill.editor.text))

        self.app.push_screen(ConfirmScreen("Give up on this drill and move on?\n"
                                           "It counts as not solved.", yes="Give up"), done)

    def action_finish(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                self._save_answer_now()
                self._act(lambda: self.mock.finish("done"))

        self.app.push_screen(ConfirmScreen("Finish the mock now?\nItems not reached count as "
                                           "unanswered.", yes="Finish"), done)

    def action_back(self) -> None:
        s = self.mock
        if s is not None and not s.finished:
            self.notify("The mock is saved; continue it with c on the mock screen. The time away "
                        "is not counted and is listed on the scorecard.", title="Mock left open")
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_run_checks(self) -> None:
        s = self.mock
        item = s.current if s is not None else None
        if item is None or item.kind != "drill" or s.paused:
            return
        self._save_answer_now()
        code = self._drill.editor.text
        self._drill.show_results()
        self._drill.results.show_running()
        self.start_check(code, item.ref, item.framework, {"index": item.index, "code": code})

    def action_queue_study_next(self) -> None:
        """Put the scorecard's "study next" cards and drills on today's plan."""
        s = self.mock
        if s is None or not s.finished or self._store is None or self._queued:
            return

        cards, drills = study_next_items(s)
        if not cards and not drills:
            self.notify("Nothing to study next: every item was answered right.")
            return
        try:
            queue_study_next(self._store, self._clock(), cards, drills)
        except StoreError as exc:
            self.notify(f"Not queued: {exc}", severity="error", timeout=20)
            return
        self._queued = True
        self.refresh_bindings()
        self.notify(f"On today's plan: {len(cards)} card{'s' if len(cards) != 1 else ''} and "
                    f"{len(drills)} drill{'s' if len(drills) != 1 else ''} (see the dashboard).")

    def action_history(self) -> None:
        self.app.open_mock_history()

    def check_done(self, report, context) -> None:
        s = self.mock
        self._drill.show_results()
        self._drill.results.show_report(report, reveal=self._coached)
        if s.finished or s.current is None or s.current.index != context["index"]:
            return  # the candidate moved on (or time ran out) while the checks ran
        mistakes = [(d.id, d.card) for d in report.diagnoses]
        try:
            self._act(lambda: s.submit_drill(report.passed, mistakes, code=context["code"],
                                             report=report.to_json()))
        except Exception as exc:  # noqa: BLE001 - a store failure must not lose the verdict
            self.notify(f"The attempt was not recorded: {exc}", severity="error", timeout=20)
            return
        if report.passed:
            self.notify("Passed: on to the next item.")

    def check_failed(self, title: str, message: str, context) -> None:
        self._drill.show_results()
        self._drill.results.show_message(title, message)

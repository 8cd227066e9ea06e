"""`MockScreen`: a timed mock interview in the app (dashboard key `m`, `ppo-drill mock`).

All timing, scoring and recording is `cards.mock.MockSession`'s; this screen only shows it. It
opens on a start panel (minutes, seed, continue an unfinished mock) so the clock starts when the
candidate says so; then shows the overall clock and the item's soft clock, puts coding items in an
editor with a run-checks key (the app's `CheckRunner` worker, never the UI thread), shows questions
with a reveal key and self-grade keys, covers the work while paused (a pause is a pause, not free
thinking time), and ends on the scorecard. Answers are saved as typed, under the session's folder.
"""
from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any, Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Markdown, Static, TextArea

from cards import drafts
from cards.mock import (MAX_MINUTES, MIN_MINUTES, MockPlan, MockSession, MockStateError, answer_root,
                        format_scorecard, plan_mock, unfinished_mocks)
from cards.store import StoreError
from tui.checking import CheckRunner
from tui.widgets.results import ResultsPanel
from tui.widgets.textual_guards import Header

TOUCH_EVERY_S = 15
SAVE_DELAY_S = 0.4


def _mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class MockScreen(CheckRunner, Screen):
    """A mock over `plan` (or a new seeded plan, or a reopened `session`)."""

    DEFAULT_CSS = """
    MockScreen #mock-clock { height: 1; padding: 0 1; background: $boost; }
    MockScreen #mock-body { height: 1fr; }
    MockScreen #mock-clock.-paused { background: $warning 40%; }
    MockScreen #mock-clock.-late { color: $error; }
    MockScreen #setup-view, MockScreen #question-view, MockScreen #paused-view,
    MockScreen #scorecard-view { padding: 1 2; }
    MockScreen #drill-side { width: 2fr; }
    MockScreen #drill-prompt { height: 1fr; }
    MockScreen #drill-results { height: 1fr; border-top: solid $primary; }
    MockScreen #drill-editor { width: 3fr; height: 1fr; }
    MockScreen #question-notes { height: 6; margin-top: 1; }
    MockScreen #question-answer { display: none; margin-top: 1; }
    MockScreen #question-answer.-shown { display: block; }
    """

    BINDINGS = [
        Binding("enter", "start", "Start"),
        Binding("plus,equals_sign", "minutes(5)", "+5 min"),
        Binding("minus", "minutes(-5)", "-5 min"),
        Binding("r", "reseed", "New seed"),
        Binding("c", "continue", "Continue unfinished"),
        Binding("ctrl+r", "run_checks", "Run checks", priority=True),
        Binding("ctrl+r", "reveal", "Reveal answer", priority=True),
        Binding("space", "reveal", "Reveal answer", show=False),
        Binding("t", "type_answer", "Type an answer"),
        Binding("1", "grade('knew')", "Knew it"),
        Binding("2", "grade('partly')", "Partly"),
        Binding("3", "grade('missed')", "Missed"),
        Binding("ctrl+b", "toggle_pause", "Pause", priority=True),
        Binding("ctrl+n", "next_item", "Give up / skip", priority=True),
        Binding("ctrl+f", "finish", "Finish", priority=True),
        Binding("escape", "back", "Back", priority=True),
    ]

    def __init__(self, plan: MockPlan | None = None, *, session: MockSession | None = None,
                 seed: int | None = None, minutes: int = 45, framework: str | None = None,
                 tick_s: float = 1.0) -> None:
        super().__init__()
        self.session = session
        self.plan = plan if plan is not None else (session.plan if session else None)
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

    # -- the app's session (store, clock, language), with fallbacks for a bare host app ----

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
            from cards.deck import load_decks

            deckset = load_decks()
        return deckset

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="mock-clock")
        with ContentSwitcher(initial="setup-view", id="mock-body"):
            with VerticalScroll(id="setup-view"):
                yield Markdown("", id="setup-text")
            with Horizontal(id="drill-view"):
                with Vertical(id="drill-side"):
                    yield Markdown("", id="drill-prompt")
                    yield ResultsPanel(id="drill-results")
                self._editor = TextArea.code_editor("", language="python", id="drill-editor",
                                                    soft_wrap=False)
                yield self._editor  # kept by reference: answers are saved while unmounting too
            with VerticalScroll(id="question-view"):
                yield Markdown("", id="question-front")
                yield Static("Answer aloud, or press [b]t[/b] and type. Then [b]ctrl+r[/b] (or "
                             "[b]space[/b]) reveals the card's answer; grade yourself [b]1[/b] knew it, "
                             "[b]2[/b] partly, [b]3[/b] missed.", id="question-help")
                yield TextArea("", id="question-notes", soft_wrap=True)
                yield Markdown("", id="question-answer")
            yield Static("[b]PAUSED[/b]\n\nThe clock is stopped and the pause is recorded on the "
                         "scorecard. Your work is hidden until you resume: [b]ctrl+b[/b].", id="paused-view")
            with VerticalScroll(id="scorecard-view"):
                yield Static("", id="scorecard")
        yield Footer()

    def on_mount(self) -> None:
        self._store = getattr(self._app_session, "store", None)
        if self._store is None and self._app_session is None:  # a bare host app (tests, demos)
            from cards.store import open_store

            self._store = open_store()
            self._own_store = True
        if self.session is not None:
            self.session.clock = self._clock
        self._show_setup()
        self._refresh()
        self.set_interval(self._tick_s, self._on_tick)

    def on_unmount(self) -> None:
        self._save_answer_now()
        if self.session is not None and not self.session.finished:
            try:
                self.session.touch()
            except StoreError:
                pass  # leaving anyway; the last saved step stands
        if getattr(self, "_own_store", False):
            self._store.close()

    @property
    def started(self) -> bool:
        return self.session is not None

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Offer only the keys that fit what is on screen."""
        s = self.session
        if action in ("start", "minutes", "reseed"):
            return not self.started
        if action == "continue":
            return not self.started and bool(self._unfinished_ids)
        if s is None:
            return action not in ("run_checks", "reveal", "grade", "toggle_pause", "next_item", "finish")
        item = None if s.finished else s.current
        running = not s.finished and not s.paused
        if action == "run_checks":
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
        topics = ", ".join(dict.fromkeys(i.topic for i in self.plan.drills))
        lines = [f"# Mock interview: {self._minutes} minutes", "",
                 f"Seed **{self._seed}**: {len(self.plan.drills)} coding drills and "
                 f"{len(self.plan.questions)} follow-up questions on {topics}.", "",
                 "One overall clock, and a soft budget per item. The clock runs while this screen "
                 "is open; **ctrl+b** pauses it, and every pause is listed on the scorecard.", "",
                 "Coding: write the function in the editor, **ctrl+r** runs the checks (a pass moves "
                 "on; **ctrl+n** gives up). Questions: answer aloud (or **t** to type), **ctrl+r** "
                 "reveals the card's answer, then grade yourself **1** / **2** / **3**.", "",
                 "**enter** starts · **+ / -** changes the minutes · **r** draws another seed"]
        if self._store is None:
            lines += ["", "*Progress is not available, so this mock will not be saved.*"]
        if self._unfinished():
            lines += ["", "**c** continues your unfinished mock (the time it was closed is not counted, "
                      "and the scorecard says so)."]
        self.query_one("#setup-text", Markdown).update("\n".join(lines))

    def action_start(self) -> None:
        if self.started or self.plan is None:
            return
        s = getattr(self._app_session, "scheduler", None)
        try:
            self.session = MockSession.start(self.plan, self._store, clock=self._clock,
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

    def action_continue(self) -> None:
        ids = self._unfinished()
        if not ids or self.started:
            return
        try:
            self.session = MockSession.load(self._store, ids[-1], clock=self._clock,
                                            fuzz=getattr(self.app, "fuzz", True),
                                            scheduler=getattr(self._app_session, "scheduler", None))
        except (KeyError, ValueError, StoreError) as exc:
            self.notify(str(exc), title="Cannot continue that mock", severity="error", timeout=20)
            return
        self.plan = self.session.plan
        self._after_change()

    # -- clock -----------------------------------------------------------------------------

    def _on_tick(self) -> None:
        s = self.session
        self._ticks += 1
        if s is not None and not s.finished:
            if self._act(s.tick):
                self.notify("Time is up: the session is finished.", severity="warning")
                return
            if self._ticks % TOUCH_EVERY_S == 0:
                self._act(s.touch)
        self._refresh()

    def _clock_text(self) -> str:
        s = self.session
        if s is None:
            return f"Mock interview · {self._minutes} min · seed {self._seed} · not started"
        if s.finished:
            return (f"Mock seed {s.plan.seed} · finished ({s.finish_reason}) · "
                    f"{_mmss(s.elapsed_s())} of {s.plan.minutes}:00 used")
        text = f"Mock seed {s.plan.seed} · {_mmss(s.remaining_s())} left of {s.plan.minutes}:00"
        item = s.current
        if item is not None:
            text += (f" · item {item.index + 1}/{len(s.plan.items)} ({item.kind}) "
                     f"{_mmss(s.item_elapsed_s())} / {_mmss(item.budget_s)}")
        return text + (" · PAUSED" if s.paused else "")

    def _refresh(self) -> None:
        s = self.session
        bar = self.query_one("#mock-clock", Static)
        bar.update(self._clock_text())
        bar.set_class(s is not None and s.paused, "-paused")
        item = s.current if s is not None and not s.finished else None
        bar.set_class(item is not None and s.item_elapsed_s() > item.budget_s, "-late")
        body = self.query_one("#mock-body", ContentSwitcher)
        if s is None:
            body.current = "setup-view"
        elif s.finished:
            if body.current != "scorecard-view":
                self.query_one("#scorecard", Static).update(format_scorecard(s.scorecard()))
                body.current = "scorecard-view"
        elif s.paused:
            body.current = "paused-view"
        elif item is not None:
            if item.index != self._shown_item:
                self._show_item(item)
            body.current = "drill-view" if item.kind == "drill" else "question-view"

    def _after_change(self) -> None:
        self._refresh()
        self.refresh_bindings()

    # -- items -----------------------------------------------------------------------------

    def _show_item(self, item) -> None:
        self._save_answer_now()
        self._shown_item = item.index
        self._revealed = False
        if item.kind == "drill":
            from drills import get_drill

            drill = get_drill(item.ref)
            prompt = drill.prompt_zh if self._lang() == "zh" and drill.prompt_zh else drill.prompt
            self.query_one("#drill-prompt", Markdown).update(
                f"## {item.index + 1}. {drill.title}\n\n*{item.framework} · {item.difficulty} · "
                f"target {item.target_minutes} min*\n\n{prompt}")
            saved = self._load_answer(item)
            editor = self._editor
            editor.load_text(saved if saved is not None else drill.starter(item.framework))
            self.query_one("#drill-results", ResultsPanel).show_message(
                "No checks run yet", "ctrl+r runs the checks; a pass moves on.")
            editor.focus()
        else:
            card = self._deckset().by_id.get(item.ref)
            front, back = card.text(self._lang()) if card else (item.title, "(this card left the decks)")
            self.query_one("#question-front", Markdown).update(
                f"## {item.index + 1}. Question\n\n{front}")
            answer = self.query_one("#question-answer", Markdown)
            answer.update(f"### The card's answer\n\n{back}\n\n*card {item.ref}*")
            answer.remove_class("-shown")
            notes = self.query_one("#question-notes", TextArea)
            notes.load_text("")
            notes.read_only = False
            self.query_one("#question-view").focus()
        self.refresh_bindings()

    def _load_answer(self, item) -> str | None:
        try:
            return drafts.load_draft(item.ref, item.framework, root=answer_root(self.session.mock_id))
        except (OSError, ValueError):
            return None

    @on(TextArea.Changed, "#drill-editor")
    def _changed(self) -> None:
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(SAVE_DELAY_S, self._save_answer_now)

    def _save_answer_now(self) -> None:
        s = self.session
        if s is None or self._shown_item is None:
            return
        item = s.plan.items[self._shown_item]
        if item.kind != "drill":
            return
        text = self._editor.text
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
        s = self.session
        if s is not None:
            self._act(s.resume if s.paused else s.pause)

    def action_type_answer(self) -> None:
        self.query_one("#question-notes", TextArea).focus()

    def action_reveal(self) -> None:
        self._revealed = True
        self.query_one("#question-notes", TextArea).read_only = True  # the answer is out: no edits
        self.query_one("#question-answer", Markdown).add_class("-shown")
        self.query_one("#question-view").focus()  # so 1 / 2 / 3 grade instead of typing
        self.refresh_bindings()

    def action_grade(self, grade: str) -> None:
        if self._revealed:
            answer = self.query_one("#question-notes", TextArea).text
            self._act(lambda: self.session.grade_question(grade, answer))

    def action_next_item(self) -> None:
        from tui.screens.dialogs import ConfirmScreen

        s = self.session
        item = s.current if s is not None else None
        if item is None:
            return
        if item.kind == "question":
            self._act(s.skip)
            return

        def done(yes: bool | None) -> None:
            if yes:
                self._save_answer_now()
                self._act(s.give_up)

        self.app.push_screen(ConfirmScreen("Give up on this drill and move on?\n"
                                           "It counts as not solved.", yes="Give up"), done)

    def action_finish(self) -> None:
        from tui.screens.dialogs import ConfirmScreen

        def done(yes: bool | None) -> None:
            if yes:
                self._save_answer_now()
                self._act(lambda: self.session.finish("done"))

        self.app.push_screen(ConfirmScreen("Finish the mock now?\nItems not reached count as "
                                           "unanswered.", yes="Finish"), done)

    def action_back(self) -> None:
        s = self.session
        if s is not None and not s.finished:
            self.notify("The mock is saved; continue it with c on the mock screen. The time away "
                        "is not counted and is listed on the scorecard.", title="Mock left open")
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_run_checks(self) -> None:
        s = self.session
        item = s.current if s is not None else None
        if item is None or item.kind != "drill" or s.paused:
            return
        self._save_answer_now()
        code = self._editor.text
        self.query_one("#drill-results", ResultsPanel).show_running()
        self.start_check(code, item.ref, item.framework, {"index": item.index, "code": code})

    def check_done(self, report, context) -> None:
        s = self.session
        panel = self.query_one("#drill-results", ResultsPanel)
        panel.show_report(report)
        if s.finished or s.current is None or s.current.index != context["index"]:
            return  # the candidate moved on (or time ran out) while the checks ran
        mistakes = [(d.id, d.card) for d in report.diagnoses]
        try:
            self._act(lambda: s.submit_drill(report.passed, mistakes, code=context["code"]))
        except Exception as exc:  # noqa: BLE001 - a store failure must not lose the verdict
            self.notify(f"The attempt was not recorded: {exc}", severity="error", timeout=20)
            return
        if report.passed:
            self.notify("Passed: on to the next item.")

    def check_failed(self, title: str, message: str, context) -> None:
        self.query_one("#drill-results", ResultsPanel).show_message(title, message)

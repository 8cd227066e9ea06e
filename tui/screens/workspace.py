"""`WorkspaceScreen`: one drill — the prompt beside a Python editor, a countdown from the target
time, hints one level at a time, checks in the warm checker, and the results panel.

The answer is saved as it is typed (debounced, atomic, `cards.progress.drafts`), before every check, on
leaving the screen and on quit, and reopened next time; a reset asks first.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static, TabbedContent, TabPane, TextArea

from cards.plan.progress_summary import format_seconds
from cards.progress import drafts
from tui.checking import CheckRunner
from tui.screens.code_view import CodeScreen
from tui.screens.confirm import ConfirmScreen
from tui.widgets.code_editor import CodeEditor
from tui.widgets.countdown import Countdown
from tui.widgets.footer import KeyFooter
from tui.widgets.markdown_text import MarkdownText
from tui.widgets.results import ResultsPanel
from tui.widgets.textual_guards import Header

SAVE_DELAY_S = 0.4


class WorkspaceScreen(CheckRunner, Screen):
    """One drill in one framework at a time; `editor` holds the answer, `results` the last verdict."""

    # Footer order is what fits at 80 columns first: back, run, hint, the two view keys, then the rest
    # (every key is in the help, f1).
    # The footer holds what fits at 80 columns, back, run, hint and the two view keys first; the pause key
    # is shown by the clock it pauses (every key is in the help, f1).
    BINDINGS = [
        Binding("escape", "back", "Back", priority=True, tooltip="back (your code is saved)"),
        Binding("ctrl+r", "run_checks", "Run", priority=True,
                tooltip="run the checks (a second run replaces the first)"),
        Binding("ctrl+t", "hint", "Hint", tooltip="the next hint (three levels, from a nudge to nearly the answer)"),
        Binding("f2", "next_tab", "Tabs", tooltip="switch between prompt, hints and results"),
        Binding("f3", "layout", "Wide", tooltip="layout: side by side, the editor alone, the prompt alone (for "
                "small terminals; arrows and page keys scroll it)"),
        Binding("alt+down", "scroll_side(1)", "Scroll", show=False,
                tooltip="page the prompt, hints or results down from the editor"),
        Binding("alt+up", "scroll_side(-1)", "Scroll", show=False,
                tooltip="page the prompt, hints or results up from the editor"),
        Binding("ctrl+l", "card", "Card", tooltip="review the card of the named mistake"),
        Binding("ctrl+g", "solution", "Answer", tooltip="show the model answer (asks first)"),
        Binding("ctrl+n", "reset", "Reset", tooltip="reset to the starter (asks first)"),
        Binding("ctrl+f", "framework", "Fw", tooltip="switch framework (numpy / torch)"),
        Binding("ctrl+o", "editor", "Edit", tooltip="open the answer in $EDITOR (or $VISUAL)"),
        Binding("ctrl+b", "pause", "Pause", show=False, tooltip="pause / resume the clock (shown by the clock)"),
    ]

    def __init__(self, drill, framework: str | None = None, preview: bool = False) -> None:
        super().__init__()
        self.drill = drill
        self.preview = preview  # practising ahead: a check changes no schedule
        # practising ahead writes from a fresh starter in its own folder, never over the saved answer
        self._root = drafts.practice_root() if preview else None
        self.framework = framework if framework in drill.frameworks else drill.frameworks[0]
        self.hint_level = 0
        self.checks_run = 0
        self._baseline = ""  # the text on disk (or the starter): nothing to save while equal
        self._save_blocked: str | None = None
        self._save_timer: Timer | None = None

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        d = self.drill
        yield Header()
        with Horizontal(id="ws-bar"):
            if self.preview:  # first, so 80 columns show it: this drill's checks change no schedule
                title = (f"[b yellow]Preview[/b yellow] [b]{escape(d.title)}[/b]  "
                         f"[dim]target {d.target_minutes} min[/dim]")
            else:
                # the target before the difficulty: a long title at 80 columns cuts what comes last
                title = f"[b]{escape(d.title)}[/b]  [dim]target {d.target_minutes} min · {d.difficulty}[/dim]"
            yield Static(title, id="ws-title")
            yield Static(id="ws-framework")
            # kept by reference, like the editor, so its time can be saved while the screen unmounts
            self._countdown = Countdown(d.target_minutes * 60, self.app.clock,
                                        already_s=drafts.load_clock(d.id, self._root), key="^b", id="ws-clock")
            yield self._countdown
        with Horizontal(id="ws-main"):
            with TabbedContent(id="ws-side", initial="tab-prompt"):
                with TabPane("Prompt", id="tab-prompt"):
                    with VerticalScroll():
                        yield MarkdownText(self._prompt(), id="ws-prompt")
                with TabPane("Hints", id="tab-hints"):
                    with VerticalScroll():
                        yield MarkdownText(self._hints_text(), id="ws-hints")
                with TabPane("Results", id="tab-results"):
                    yield ResultsPanel(card_key="ctrl+l", id="ws-results")
            self._editor = CodeEditor.code_editor("", language="python", id="ws-editor", soft_wrap=False)
            yield self._editor
        yield KeyFooter(show_command_palette=False)

    def _prompt(self) -> str:
        """The prompt in the session's language, without its title line (the bar shows it)."""
        text = self.drill.prompt_zh if self.app.session.language == "zh" and self.drill.prompt_zh \
            else self.drill.prompt
        lines = text.lstrip().splitlines()
        return "\n".join(lines[1:]).lstrip() if lines and lines[0].startswith("# ") else text

    def _hints_text(self) -> str:
        hints = self.drill.hints
        if self.hint_level == 0:
            return (f"{len(hints)} hints: a question, then the concept, then the answer (the last one says so). "
                    "Press **ctrl+t** for the first.")
        shown = [f"### Hint {i + 1} of {len(hints)}\n\n{h.strip()}" for i, h in enumerate(hints[:self.hint_level])]
        if self.hint_level < len(hints):
            shown.append("*ctrl+t shows the next hint.*")
        return "\n\n".join(shown)

    def on_mount(self) -> None:
        self._load(self.framework)
        self.editor.focus()
        if self.preview:
            self.notify("Practising ahead: a preview. Checks here change no schedule.", title=self.drill.id)

    @property
    def editor(self) -> TextArea:
        """Kept by reference so the text can still be saved while the screen is being unmounted."""
        return self._editor

    @property
    def results(self) -> ResultsPanel:
        return self.query_one("#ws-results", ResultsPanel)

    # -- saving ------------------------------------------------------------------------------
    def _load(self, framework: str) -> None:
        """Open the saved answer for `framework`, else its starter."""
        self.framework = framework
        try:
            text = drafts.load_draft(self.drill.id, framework, self._root)
        except OSError as exc:
            text = None
            try:
                kept = drafts.set_aside(self.drill.id, framework, self._root)
            except OSError as move_exc:
                self._save_blocked = f"{exc}; {move_exc}"
                kept = "in place (answers will not be saved until it is moved)"
            self.notify(f"{exc}\nIt was kept {kept}; showing the starter.",
                        title="Saved answer unreadable", severity="error", timeout=30)
        restored = text is not None
        self._baseline = text if restored else self.drill.starter(framework)
        self.editor.load_text(self._baseline)
        self._show_framework(saved=restored)
        try:  # the checker readies this drill's first check while the user writes
            prepare = getattr(self.app.checker_client(), "prepare", None)
            if prepare is not None:
                prepare(self.drill.id, framework)
        except Exception:  # noqa: BLE001 - a checker that cannot start says so at the first check
            pass

    def _show_framework(self, saved: bool = False) -> None:
        others = len(self.drill.frameworks) > 1
        note = " [dim](saved answer)[/dim]" if saved else ""
        self.query_one("#ws-framework", Static).update(
            f"[b]{self.framework}[/b]{' ⇄' if others else ''}{note}")

    @on(TextArea.Changed, "#ws-editor")
    def _changed(self) -> None:
        if self.editor.text == self._baseline:
            return
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(SAVE_DELAY_S, self.save_now)

    def save_now(self) -> None:
        """Write the editor's text to the draft file if it changed (atomic replace)."""
        text = self.editor.text
        if text == self._baseline or self._save_blocked:
            return
        try:
            drafts.save_draft(self.drill.id, self.framework, text, self._root)
            self._baseline = text
        except OSError as exc:
            self.notify(f"Could not save your answer: {exc}", severity="error", timeout=20)

    def save_clock(self) -> None:
        """Remember the attempt's time so the clock carries on when the drill is reopened."""
        try:
            drafts.save_clock(self.drill.id, self._countdown.elapsed(), self._root)
        except Exception:  # noqa: BLE001 - losing the clock must never lose the answer or block leaving
            pass

    def on_unmount(self) -> None:
        self.save_now()
        self.save_clock()

    def action_back(self) -> None:
        self.save_now()
        self.app.pop_screen()

    # -- checks ------------------------------------------------------------------------------
    def action_run_checks(self) -> None:
        self.save_now()
        code = self.editor.text
        clock = self.query_one(Countdown)
        context = {"framework": self.framework, "code": code, "elapsed_s": clock.elapsed(),
                   "started_at": clock.started}
        self.results.show_running("" if self.app.checker_warm() else
                                  "Starting the checker: the first check takes a few seconds.")
        self._show_side("tab-results")
        self.start_check(code, self.drill.id, self.framework, context)

    def check_done(self, report, context) -> None:
        self.checks_run += 1
        note = f"  · {format_seconds(context['elapsed_s'])}"
        self.results.show_report(report, extra=note)
        self._show_side("tab-results")
        if report.passed:  # this attempt is over; the next one gets the full target time
            self._countdown.restart()
            self.save_clock()
            if self.preview:  # a passed practice is done: the next practice starts from the starter
                drafts.delete_draft(self.drill.id, self.framework, self._root)
        try:
            outcome = self.app.session.record_check(
                report, self.drill, context["framework"], started_at=context["started_at"],
                elapsed_s=context["elapsed_s"], code=context["code"], preview=self.preview)
        except Exception as exc:  # noqa: BLE001 - a store failure must not lose the verdict
            self.notify(f"The attempt was not recorded: {exc}", severity="error", timeout=20)
            return
        if outcome is None:
            self.notify("Progress is not available, so this attempt was not recorded.", severity="warning")
        elif outcome.preview:
            self.notify("A preview: this drill's schedule is unchanged.", title="Practising ahead")
        elif outcome.cards_again:
            self.notify("Sent back for review: " + ", ".join(outcome.cards_again), title="Cards")

    def check_failed(self, title: str, message: str, context) -> None:
        self.results.show_message(title, message)
        self._show_side("tab-results")

    # -- the other keys ----------------------------------------------------------------------
    def action_hint(self) -> None:
        if self.hint_level < len(self.drill.hints):
            self.hint_level += 1
        self.query_one("#ws-hints", MarkdownText).update_markdown(self._hints_text())
        self._show_side("tab-hints")

    def _show_side(self, tab: str) -> None:
        """Switch the side pane to `tab`, bringing the pane back if the editor had the screen."""
        self.query_one("#ws-main").remove_class("-wide-editor")
        self.query_one(TabbedContent).active = tab

    def action_next_tab(self) -> None:
        tabs = self.query_one(TabbedContent)
        order = ["tab-prompt", "tab-hints", "tab-results"]
        self._show_side(order[(order.index(tabs.active) + 1) % len(order)])

    def _side_scroller(self):
        """The scrolling part of the side pane's open tab (the results panel scrolls itself)."""
        tabs = self.query_one(TabbedContent)
        if tabs.active == "tab-results":
            return self.results
        return self.query_one(f"#{tabs.active} VerticalScroll", VerticalScroll)

    def action_scroll_side(self, direction: int) -> None:
        """Page the prompt, hints or results while the editor keeps the cursor."""
        main = self.query_one("#ws-main")
        if main.has_class("-wide-editor"):
            main.remove_class("-wide-editor")
        scroller = self._side_scroller()
        (scroller.scroll_page_down if direction > 0 else scroller.scroll_page_up)(animate=False)

    LAYOUTS = ("", "-wide-editor", "-wide-side")

    def action_layout(self) -> None:
        """Cycle: side by side, the editor alone, the prompt/results alone (small terminals)."""
        main = self.query_one("#ws-main")
        current = next((c for c in self.LAYOUTS[1:] if main.has_class(c)), "")
        following = self.LAYOUTS[(self.LAYOUTS.index(current) + 1) % len(self.LAYOUTS)]
        main.remove_class(*self.LAYOUTS[1:])
        if following:
            main.add_class(following)
        # the pane alone takes the keys: arrows, page keys, home and end scroll it (f2 still switches tabs)
        (self.editor if following != "-wide-side" else self._side_scroller()).focus()

    def action_pause(self) -> None:
        paused = self.query_one(Countdown).toggle()
        self.notify("Clock paused (ctrl+b resumes)." if paused else "Clock running.")

    def action_framework(self) -> None:
        frameworks = self.drill.frameworks
        if len(frameworks) == 1:
            self.notify(f"This drill is {frameworks[0]} only.")
            return
        self.save_now()
        self._load(frameworks[(frameworks.index(self.framework) + 1) % len(frameworks)])
        self.notify(f"Switched to {self.framework}.")

    def action_card(self) -> None:
        known = self.app.session.deckset.by_id
        cards = [c for c in (self.results.cards or self.drill.cards) if c in known]
        if not cards:
            self.notify("No related card.")
            return
        self.app.open_cards(cards)

    def action_reset(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                self.editor.load_text(self.drill.starter(self.framework))
                self._baseline = None  # force the write: the file must hold the starter now
                self.save_now()
                self._countdown.restart()  # a fresh start is a fresh attempt
                self.save_clock()
                self._show_framework()

        self.app.push_screen(ConfirmScreen(
            f"Replace your {self.framework} answer with the starter?\nYour current code will be lost.",
            yes="Reset"), done)

    def action_solution(self) -> None:
        """The model answer, always after a question (a stray ctrl+g must not spoil the practice)."""

        def show(yes: bool | None = True) -> None:
            if yes:
                self.app.push_screen(CodeScreen(
                    f"Model answer — {self.drill.title} ({self.framework})",
                    self.drill.solution(self.framework)))

        store = self.app.session.store
        tried = self.checks_run or (store is not None and store.attempts(self.drill.id))
        question = ("Show the model answer?\nSeeing it spoils this attempt's recall practice." if tried else
                    "You have not run the checks on this drill yet.\nShow the model answer anyway?")
        self.app.push_screen(ConfirmScreen(question, yes="Show it"), show)

    def action_editor(self) -> None:
        """Open the answer in $VISUAL / $EDITOR; the app comes back whatever the editor does. An
        editor that cannot be found is said before the screen is handed over; one that fails to
        start is said after the app resumes (an exception inside `App.suspend()` would skip the
        resume and leave a blank screen that takes no keys)."""
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor:
            self.notify("Set $EDITOR (or $VISUAL) to edit in your own editor.", severity="warning")
            return
        try:
            command = shlex.split(editor)
        except ValueError as exc:
            self.notify(f"Cannot read $EDITOR ({editor!r}): {exc}", severity="error", timeout=15)
            return
        if not command or shutil.which(command[0]) is None:
            self.notify(f"Cannot open your editor: {command[0] if command else editor} was not found. "
                        "Set $EDITOR (or $VISUAL) to an editor on your PATH.",
                        title="Editor not found", severity="error", timeout=15)
            return
        self._baseline = None
        self.save_now()
        path = drafts.draft_path(self.drill.id, self.framework, self._root)
        failure: str | None = None
        try:
            with self.app.suspend():
                try:
                    status = subprocess.run([*command, str(path)], check=False).returncode
                except (OSError, subprocess.SubprocessError) as exc:  # not executable, vanished, ...
                    failure = f"{command[0]} could not be started: {exc}"
                else:
                    if status:
                        failure = f"{command[0]} exited with status {status}"
        except Exception as exc:  # noqa: BLE001 - SuspendNotSupported: no terminal to hand over
            self.notify(f"Could not open {editor}: {exc}", severity="error")
            return
        if failure:
            self.notify(failure, title="Editor", severity="warning", timeout=15)
        text = drafts.load_draft(self.drill.id, self.framework, self._root)
        if text is not None and text != self.editor.text:
            self._baseline = text
            self.editor.load_text(text)
            self.notify("Reloaded your answer from the editor.")

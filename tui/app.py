"""`PpoDrillApp`, the Textual app behind `ppo-drill`, and `run(args)` that opens it.

Wiring only: the session (store, decks, drills, clock) is opened at mount, the warm checker process
is started in the background after the first paint (torch never loads in this process), and each
screen lives in `tui/screens/`. Everything injectable for tests: data folder, clock, checker, fuzz,
and the content (decks, drills).
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tui.palette import DrillCommands
from tui.session import Clock, Session, utc_now
from tui.widgets import highlight_queries, textual_guards

textual_guards.install()  # crash guards inside Textual; one whose private parts are gone is skipped, with a warning
highlight_queries.install()  # every code editor shares one compiled highlight query per language

def _default_checker():
    from checker.service import CheckerClient

    return CheckerClient()


class PpoDrillApp(App):
    """Dashboard first; review, drills, paste, mock, stats and help from there."""

    CSS_PATH = "app.tcss"
    TITLE = "ppo-drill"
    SUB_TITLE = "f1 help · ctrl+p commands"
    COMMANDS = App.COMMANDS | {DrillCommands}  # drills, fix-the-bug variants and cards by name
    BINDINGS = [Binding("f1", "help", "Help", show=False, priority=True),
                Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, data_dir: Path | str | None = None, clock: Clock = utc_now,
                 checker_factory: Callable[[], object] | None = None, fuzz: bool = True,
                 initial_screen: Callable[[], Screen] | None = None, deckset=None,
                 drills: list | None = None) -> None:
        super().__init__()
        if data_dir is None:
            from cards.progress.paths import data_dir as default_dir

            data_dir = default_dir()
        self.data_dir = Path(data_dir)
        self.clock = clock
        self.fuzz = fuzz
        self.initial_screen = initial_screen
        self._content = (deckset, drills)  # None: the shipped decks and drills
        self._checker_factory = checker_factory or _default_checker
        self._checker = None
        self._checker_lock = threading.Lock()
        self.session: Session | None = None

    def on_mount(self) -> None:
        """Paint the dashboard frame first, then load decks, drills and progress (~0.1 s of YAML
        and SQLite) and fill it in, then start the checker process."""
        from tui.screens.dashboard import DashboardScreen

        self.push_screen(DashboardScreen())
        self.call_after_refresh(self._open_session)

    def _open_session(self) -> None:
        self.session = Session.open(self.data_dir, clock=self.clock, fuzz=self.fuzz,
                                    deckset=self._content[0], drills=self._content[1])
        for problem in self.session.content_errors:
            self.notify(problem, title="Content problem", severity="warning", timeout=20)
        saved = self.session.store.get_setting("theme") if self.session.store else None
        if saved in self.available_themes:
            self.theme = saved
        if self.session.store_error:
            self.notify(self.session.store_error, title="Progress not available",
                        severity="error", timeout=30)
        for screen in self.screen_stack:
            if hasattr(screen, "session_ready"):
                screen.session_ready()
        unreadable = self.session.store.problems if self.session.store is not None else []
        if unreadable:  # named once: the app goes on without those rows, which stay as they are
            self.notify("\n".join(unreadable[:3]) + (f"\n... and {len(unreadable) - 3} more" if len(unreadable) > 3 else ""),
                        title=f"{len(unreadable)} row(s) of your progress could not be read and are skipped",
                        severity="warning", timeout=30, markup=False)
        if self.initial_screen is not None:
            self.push_screen(self.initial_screen())
        self.call_after_refresh(self.run_worker, self.checker_client, thread=True,
                                exit_on_error=False, group="checker-start")

    def watch_theme(self, theme: str) -> None:
        """Remember the theme chosen in the command palette (dark or light, any of Textual's)."""
        if self.session is not None and self.session.store is not None:
            if self.session.store.get_setting("theme") != theme:
                self.session.store.set_setting("theme", theme)

    def checker_warm(self) -> bool:
        """True once the checker process has imported everything (the next check is quick)."""
        return self._checker is not None and bool(getattr(self._checker, "ready", True))

    def checker_client(self):
        """The checker client, created on first use (thread-safe; blocks only while it starts)."""
        with self._checker_lock:
            if self._checker is None:
                self._checker = self._checker_factory()
            return self._checker

    def on_unmount(self) -> None:
        if self._checker is not None:
            # Closing its stdin is enough for the worker to exit; waiting for that (it may still be
            # importing torch) would only delay the quit, so it happens on a daemon thread.
            threading.Thread(target=self._close_checker, args=(self._checker,), daemon=True).start()
        if self.session is not None:
            self.session.close()

    @staticmethod
    def _close_checker(checker) -> None:
        try:
            checker.close()
        except Exception:  # noqa: BLE001 - shutting down; nothing to tell anyone
            pass

    def make_screen(self, name: str) -> Screen:
        """A fresh screen by name. Every screen is imported plainly: a screen that fails to import is a
        bug to see, never a "coming soon"."""
        from tui.screens import drill_list, help, mock, paste, review, stats

        screens = {"review": review.ReviewScreen, "drills": drill_list.DrillListScreen,
                   "paste": paste.PasteScreen, "help": help.HelpScreen, "mock": mock.MockScreen,
                   "stats": stats.StatsScreen}
        return screens[name]()

    def open_screen(self, name: str) -> None:
        if self.session is None:  # a key pressed while loading: open it once loaded
            self.call_after_refresh(self.open_screen, name)
            return
        self.push_screen(self.make_screen(name))

    def open_drill(self, drill_id: str, framework: str | None = None, preview: bool = False) -> None:
        """The drill's workspace on top (in `framework` where the drill has it; `preview`: practising ahead,
        the verdict changes no schedule). Screens open each other through the app, never by importing
        each other."""
        from tui.screens.workspace import WorkspaceScreen

        drill = self.session.drill(drill_id)
        self.push_screen(WorkspaceScreen(drill, framework if framework in drill.frameworks else None,
                                         preview=preview))

    def open_cards(self, card_ids: Iterable[str]) -> None:
        """A review of exactly these cards on top (a named mistake's card, a topic's cards)."""
        from tui.screens.review import ReviewScreen

        self.push_screen(ReviewScreen(card_ids=list(card_ids)))

    def action_help(self) -> None:
        from textual.command import CommandPalette

        from tui.screens.help import HelpScreen

        if isinstance(self.screen, CommandPalette):
            # f1 is a priority key, so it also arrives while the palette is open: close the palette
            # first, so that help speaks of the screen below and the palette never ends up under it.
            self.pop_screen()
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(about=type(self.screen).__name__))

    def action_command_palette(self) -> None:
        """One palette at a time: Textual only looks at the top screen, so with a palette lower in
        the stack, or one closed a moment ago and not yet removed, a second one would be pushed with the
        same id (DuplicateIds, and the app ends)."""
        from textual.command import CommandPalette

        if any(isinstance(screen, CommandPalette) for screen in self.screen_stack):
            return
        if any(isinstance(node, CommandPalette) for node in self._nodes):
            # one just closed (f1 closes it before help opens) is still being removed: a new one with
            # its id would end the app with DuplicateIds, so open it once the old one is gone
            self.set_timer(0.02, self.action_command_palette)
            return
        if self.use_command_palette:
            self.push_screen(textual_guards.CommandPalette(id="--command-palette"))

    def _handle_exception(self, error: Exception) -> None:
        """A screen closed while one of its handlers was still pending (opened and closed by keys
        typed faster than it mounts) finds its widgets gone: that NoMatches is dropped, since
        nothing is on screen to update. Everything else ends the app as Textual does."""
        if _from_a_closed_screen(self, error):
            return
        super()._handle_exception(error)

    async def on_event(self, event) -> None:
        """Ignore a key that arrives while the app is closing (its screens already gone): Textual
        would look for the screen's bindings and end with ScreenStackError instead of quitting."""
        from textual import events
        from textual.app import ScreenStackError

        if isinstance(event, events.Key):
            try:
                _ = self.screen
            except ScreenStackError:
                return
        await super().on_event(event)

    async def run_action(self, action, default_namespace=None, namespaces=None) -> bool:
        """Drop a key's action meant for a screen that is not ready: one pushed a moment ago whose
        widgets are not mounted yet, or one already closed (keys typed quickly in a real terminal
        arrive in between; the screen's actions would look for widgets that are not there)."""
        screen = default_namespace if isinstance(default_namespace, Screen) else None
        if screen is not None and (not screen.is_mounted or screen not in self.screen_stack):
            return False
        return await super().run_action(action, default_namespace, namespaces)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for name, help_text in (("review", "Review the cards due now"),
                                ("drills", "List the coding drills"),
                                ("paste", "Paste code and check it"),
                                ("mock", "Mock interview"), ("stats", "Statistics"),
                                ("help", "Keys and what each screen does")):
            yield SystemCommand(f"Open {name}", help_text, lambda n=name: self.open_screen(n))
        yield SystemCommand("Settings: interview date and mock mode",
                            "The date the study plan counts down to; coached or interview-like mocks",
                            self.open_plan_settings)
        yield SystemCommand("Mock history", "Reopen a past mock's scorecard; compare two runs of a seed",
                            self.open_mock_history)

    def open_mock_history(self) -> None:
        from tui.screens.mock_history import MockHistoryScreen

        if self.session is not None and self.session.store is not None:
            self.push_screen(MockHistoryScreen(self.session.store))

    def open_mock(self, plan, in_place_of_idle: bool = False) -> None:
        """A mock over `plan` (a past mock's, replayed) on top, on its start panel; `in_place_of_idle`: in place
        of the mock screen on top when that one is not running (its start panel or its scorecard)."""
        from tui.screens.mock import MockScreen

        below = self.screen
        if in_place_of_idle and isinstance(below, MockScreen) and (below.mock is None or below.mock.finished):
            self.pop_screen()
        self.push_screen(MockScreen(plan))

    def open_plan_settings(self) -> None:
        from tui.screens.plan_settings import PlanSettingsScreen

        if self.session is not None:
            self.push_screen(PlanSettingsScreen())


def _from_a_closed_screen(app: App, error: BaseException) -> bool:
    """True when `error` is a NoMatches raised by code of one of this app's screens (or their
    widgets) after that screen left the screen stack, or while the app is quitting."""
    from textual.css.query import NoMatches
    from textual.dom import DOMNode

    if not isinstance(error, NoMatches):
        return False
    closing = app._exit or app._closing  # quitting: every screen's widgets are being removed
    owner = None
    tb = error.__traceback__
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("self")
        if isinstance(candidate, DOMNode) and type(candidate).__module__.startswith("tui."):
            owner = candidate
        tb = tb.tb_next
    if owner is None:
        return False
    screen = owner if isinstance(owner, Screen) else getattr(owner, "_parent", None)
    while screen is not None and not isinstance(screen, Screen):
        screen = getattr(screen, "_parent", None)
    return screen is not None and (closing or screen not in app.screen_stack)


def run(args=None, initial_screen: Callable[[], Screen] | None = None) -> int:
    """Open the app (`ppo-drill` with no command; `ppo-drill mock` passes its screen as
    `initial_screen`, pushed over the dashboard). The data folder comes from `data_dir()`."""
    app = PpoDrillApp(initial_screen=initial_screen)
    app.run()
    return app.return_code or 0

"""`CheckRunner`: the part of a screen that sends code to the checker in a thread worker.

A check blocks on the warm checker process, so it runs off the UI thread; a second run cancels the
first (its result, when it arrives, is dropped), and a checker failure becomes a message on the
screen instead of an exception in the app. Results come back as a `CheckFinished` message
(`post_message` is thread-safe and never blocks, so a worker finishing while the app quits cannot
hang the exit the way a blocking `call_from_thread` could).
"""
from __future__ import annotations

from typing import Any, Callable

from textual import work
from textual.message import Message
from textual.worker import get_current_worker


class CheckFinished(Message):
    """A check's outcome on its way from the worker thread to the screen that asked."""

    def __init__(self, handler: Callable, args: tuple) -> None:
        super().__init__()
        self.handler = handler
        self.args = args


class CheckRunner:
    """Mixin for a Screen: call `start_check`; implement `check_done(report, context)` and
    `check_failed(title, message, context)`."""

    def start_check(self, source: str, drill: str | None, framework: str | None,
                    context: Any = None) -> None:
        cancel = getattr(self.app.checker_client(), "cancel_running", None)
        if cancel is not None:  # a new run supersedes the last: stop it in the checker too
            cancel()
        self._check_worker(source, drill, framework, context)

    @work(thread=True, exclusive=True, exit_on_error=False, group="check",
          description="check the answer")  # not repr(args): a session walks every drill
    def _check_worker(self, source: str, drill: str | None, framework: str | None,
                      context: Any) -> None:
        worker = get_current_worker()
        try:
            client = self.app.checker_client()
            report = client.check(source, drill=drill, framework=framework, seed=0)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never raised in the app
            title, message = _describe(exc)
            outcome = CheckFinished(self.check_failed, (title, message, context))
        else:
            outcome = CheckFinished(self.check_done, (report, context))
        if not worker.is_cancelled:
            self.post_message(outcome)

    def on_check_finished(self, message: CheckFinished) -> None:
        """Hand a result to the screen unless it was closed while the check ran."""
        message.stop()
        if self.is_attached:
            message.handler(*message.args)

    def check_done(self, report, context: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def check_failed(self, title: str, message: str, context: Any) -> None:  # pragma: no cover
        raise NotImplementedError


def _describe(exc: BaseException) -> tuple[str, str]:
    """A title and message for a failed check: which drill (usage) or why the checker is gone."""
    kind = type(exc).__name__
    if kind == "UsageError":
        return "Cannot tell which drill this is", str(exc)
    if kind == "CheckerUnavailable":
        return "The checker is not available", (
            f"{exc}\n\nYour code is saved. Run the checks again to restart the checker.")
    if isinstance(exc, TimeoutError):
        return "The checker did not answer", "No verdict within the time limit; run the checks again."
    return "The checker failed", f"{kind}: {exc}"

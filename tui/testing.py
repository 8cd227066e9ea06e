"""Test doubles for driving the app without torch: `ScriptedChecker` and `FixedClock`.

`ScriptedChecker` answers like the real checker for the answers the content itself provides: a
drill's model solution passes; a catalogued mistake's buggy copy fails with that mistake named (and
its card), a failed check and a counterexample; code that does not compile fails with a syntax
error and no check run; anything else fails with no mistake named. Used by
the TUI tests and snapshots (deterministic, instant) and handy for demos of the app.
"""
from __future__ import annotations

import asyncio
import random
import unicodedata
from datetime import datetime, timedelta, timezone

from textual import events
from textual.keys import _character_to_key, _get_unicode_name_from_key

from checker.detect import detect
from checker.report import CheckResult, Counterexample, Diagnosis, Report, RunError
from checker.runs.grade import grade
from drills import get_drill

FIXED_START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


class FixedClock:
    """A clock that only moves when told: `clock()` is now, `advance(seconds=...)` moves it."""

    def __init__(self, start: datetime = FIXED_START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def _norm(code: str) -> str:
    return "\n".join(line.rstrip() for line in code.strip().splitlines())


class ScriptedChecker:
    """The `CheckerClient` interface (check, wait_ready, close) over the drills' own files.

    `fail_with` makes every check raise that exception (a dead checker); `calls` records each
    request as (drill, framework).
    """

    def __init__(self, fail_with: BaseException | None = None) -> None:
        self.fail_with = fail_with
        self.calls: list[tuple[str | None, str | None]] = []
        self.closed = False

    def wait_ready(self, timeout: float | None = None) -> bool:
        return self.fail_with is None

    def close(self) -> None:
        self.closed = True

    def check(self, source: str, drill: str | None = None, framework: str | None = None,
              seed: int = 0) -> Report:
        self.calls.append((drill, framework))
        if self.fail_with is not None:
            raise self.fail_with

        drill_id, framework = detect(source, drill, framework)
        d = get_drill(drill_id)
        if d.is_run:  # an answer sheet: graded as the real checker grades it (text, nothing runs)

            return grade(source, d)
        try:  # like the real checker: code that does not compile never runs
            compile(source, "answer.py", "exec")
        except SyntaxError as exc:
            return Report(drill_id, framework, False, elapsed_ms=5.0,
                          error=RunError("syntax", f"answer.py is not valid Python: {exc.msg} (line {exc.lineno}).",
                                         exc.lineno))
        checks = [CheckResult("type", "returns the right type", True),
                  CheckResult("reference", "matches the reference on random inputs", True)]
        if _norm(source) == _norm(d.solution(framework)):
            return Report(drill_id, framework, True, checks=checks, elapsed_ms=21.0)
        named = [m for m in d.mistakes if m.source(framework) is not None
                 and _norm(m.source(framework)) == _norm(source)]
        checks[1] = CheckResult("reference", "matches the reference on random inputs", False,
                                "Your output differs from the reference at index 0: expected 1.5, got 1.25.")
        cx = Counterexample("reference", "random", {"x": [1.0, 2.0]}, {"out": [1.5, 2.0]},
                            {"out": [1.25, 2.0]}, where="index 0")
        diagnoses = [Diagnosis(m.id, m.title, m.explanation, m.card) for m in named[:1]]
        return Report(drill_id, framework, False, checks=checks, diagnoses=diagnoses,
                      counterexample=cx, elapsed_ms=23.0)


# ------------------------------------------------------------------------------------- random keys

#: what a random-key run presses: every binding of every screen, the palette, help and the keys
#: that move through lists, menus and editors, and some text
RANDOM_KEYS = (
    "ctrl+p", "f1", "f2", "f3", "escape", "enter", "tab", "shift+tab", "space", "backspace", "delete",
    "up", "down", "left", "right", "pageup", "pagedown", "home", "end",
    "ctrl+r", "ctrl+t", "ctrl+l", "ctrl+b", "ctrl+f", "ctrl+o", "ctrl+n", "ctrl+g", "ctrl+e", "ctrl+a",
    "ctrl+z", "ctrl+y", "ctrl+c", "ctrl+v", "ctrl+x", "ctrl+k", "ctrl+u", "ctrl+w", "ctrl+d",
    "r", "d", "p", "m", "s", "f", "c", "t", "u", "l", "y", "n", "q", "question_mark",
    "1", "2", "3", "4", "plus", "minus", "equals_sign", "a", "x", "0", "9", "left_parenthesis",
    "right_parenthesis", "colon", "full_stop", "comma", "underscore", "quotation_mark",
)
#: keys that leave the app; a run skips them (ctrl+c may copy in an editor, so it stays)
QUIT_KEYS = frozenset({"ctrl+q"})


def random_keys(seed: int, count: int) -> list[str]:
    """A reproducible sequence of `count` keys, with bursts of one key (repeat, as a held key) and
    runs of screen-opening and closing keys often enough to visit every screen."""
    rng = random.Random(seed)
    keys: list[str] = []
    while len(keys) < count:
        roll = rng.random()
        if roll < 0.08:
            keys.extend([rng.choice(("pageup", "pagedown", "down", "up", "tab"))] * rng.randint(2, 6))
        elif roll < 0.20:
            keys.extend([rng.choice(("escape", "escape", "ctrl+p", "f1")), rng.choice("rdpms")])
        else:
            keys.append(rng.choice(RANDOM_KEYS))
    return keys[:count]


def _key_event(app, key: str):
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    return event


class AppCrashed(AssertionError):
    """A random-key run ended the app with an unhandled exception."""


async def press_randomly(app, pilot, keys: list[str], burst: int = 8, on_key=None,
                         recent: list[str] | None = None, visit_every: int = 25) -> int:
    """Send `keys` to a running app (`App.run_test`) the way a fast typist or a held key does: in
    bursts of up to `burst` keys with no wait between them (races between a key and the layout it
    depends on show up this way), then wait until the app has handled them. Every `visit_every`
    bursts the next screen of a rotation is opened directly (each screen, the drill workspace
    included, is visited). Returns how many keys were sent before the app exited on its own;
    raises `AppCrashed` (with the last keys) when it ended with an unhandled exception."""
    rotation = ["review", "drills", "paste", "mock", "stats", "help", "workspace"]
    sent = 0
    recent = [] if recent is None else recent  # the caller's list, for a crash found on exit
    for start in range(0, len(keys), burst):
        for key in keys[start:start + burst]:
            if key in QUIT_KEYS:
                continue
            if app._exit_renderables or app._exception is not None or not app.is_running:
                break
            app._driver.send_message(_key_event(app, key))
            recent.append(key)
            del recent[:-30]
            sent += 1
            if on_key is not None:
                on_key(key)
            await asyncio.sleep(0)
        # the screen has handled what was queued (cheap); now and then also wait for the app to idle
        await (pilot.pause() if (start // burst) % 10 == 9 else pilot._wait_for_screen())
        if app._exception is not None:
            raise AppCrashed(f"after keys {recent}: {type(app._exception).__name__}: {app._exception}") \
                from app._exception
        if not app.is_running:
            return sent
        if (start // burst) % visit_every == visit_every - 1 and app.session is not None:
            name = rotation[(start // burst // visit_every) % len(rotation)]
            if name == "workspace":
                drills = app.session.drills
                app.open_drill(drills[start % len(drills)].id)
            else:
                app.open_screen(name)
            await pilot.pause()
    return sent

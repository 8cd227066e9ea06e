"""Test doubles for driving the app without torch: `ScriptedChecker` and `FixedClock`.

`ScriptedChecker` answers like the real checker for the answers the content itself provides: a
drill's model solution passes; a catalogued mistake's buggy copy fails with that mistake named (and
its card), a failed check and a counterexample; code that does not compile fails with a syntax
error and no check run; anything else fails with no mistake named. Used by
the TUI tests and snapshots (deterministic, instant) and handy for demos of the app.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from checker.report import CheckResult, Counterexample, Diagnosis, Report

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
        from checker.detect import detect
        from drills import get_drill

        drill_id, framework = detect(source, drill, framework)
        d = get_drill(drill_id)
        try:  # like the real checker: code that does not compile never runs
            compile(source, "answer.py", "exec")
        except SyntaxError as exc:
            return Report(drill_id, framework, False, elapsed_ms=5.0,
                          error={"kind": "syntax", "line": exc.lineno, "detail": "",
                                 "message": f"answer.py is not valid Python: {exc.msg} (line {exc.lineno})."})
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

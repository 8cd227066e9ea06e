"""The check of one answer as a user asks for it, from the command line or the app's warm worker: the drill
named by the caller, by the file's `# ppo-drill drill:` line or by the function it defines, then the
engine's check, with the planted bug of a fix-the-bug drill withheld. What the caller got wrong (an
unknown drill, a bad timeout, code that names no drill) is a `UsageError`, exit 2 on the command line.

A start-up boundary: the command line's parser imports this module before `ppo-drill check` starts the
sandbox's zygote, and a process that has loaded the drills or the engine starts its zygote afresh (a
second import of torch) instead of forking it. So the drills, the sandbox and the engine are imported
where they are used, not here."""
from __future__ import annotations

import re


class UsageError(Exception):
    """A problem with how the command was called (exit 2)."""


def drill_or_usage_error(drill_id: str):
    """The drill of `drill_id` as typed (`policy_loss` names `policy-loss`); a `UsageError` naming the close
    ones when there is none."""
    from drills import get_drill, typed_drill_id

    try:
        return get_drill(typed_drill_id(drill_id))
    except KeyError:
        raise UsageError(f"unknown drill {drill_id!r}{did_you_mean(drill_id)} (`ppo-drill drills` lists "
                         "every drill)") from None


def did_you_mean(drill_id: str) -> str:
    """"; did you mean gae?" for a typed drill id close to a known one, else ""."""
    import difflib

    from drills import load_drills, typed_drill_id

    close = difflib.get_close_matches(typed_drill_id(drill_id), [d.id for d in load_drills()], n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(close)}?" if close else ""


#: The first line `ppo-drill start` writes, naming the drill, so a fix-the-bug drill's file (which
#: defines the same function as its base drill) is checked and recorded as that drill.
DRILL_LINE = "# ppo-drill drill: {id}"
_DRILL_LINE = re.compile(r"^#\s*ppo-drill drill:\s*([A-Za-z0-9_-]+)\s*$", re.M)


def drill_from_source(source: str) -> str | None:
    """The drill named by a `# ppo-drill drill: ID` line among the file's first five lines."""
    match = _DRILL_LINE.search("\n".join(source.splitlines()[:5]))
    return match.group(1) if match else None


def run_check(checker, source: str, drill: str | None, framework: str | None, seed: int,
              timeout: float | None = None, filename: str = "answer.py"):
    """The check behind `ppo-drill check` and `watch` (and the app's worker), by `checker` (a
    `checker.engine.Checker`, built once by the caller): detect, then check. Without a drill, the file's
    drill line (written by `start`) names it, else the function does; `filename` is what tracebacks and
    syntax errors call the code."""
    from checker.detect import DetectError
    from checker.given_code import withhold_planted
    from checker.sandbox.model import Limits

    named_by_line = drill is None and (drill := drill_from_source(source)) is not None
    if drill is not None:
        try:
            drill = drill_or_usage_error(drill).id  # as typed, or as an older version wrote the line
        except UsageError as exc:
            if not named_by_line:
                raise
            raise UsageError(f"the file's `# ppo-drill drill: {drill}` line names an {exc} "
                             "(fix that line, or pass --drill ID)") from None
    limits = None
    if timeout is not None:
        if timeout <= 0:
            raise UsageError("--timeout must be positive")
        limits = Limits(wall_s=timeout, cpu_s=max(1, int(timeout + 0.999)))
    try:
        report = checker.check(source, drill, framework, seed, limits=limits, filename=filename)
    except DetectError as exc:
        raise UsageError(str(exc)) from None
    return withhold_planted(report, source)  # a fix-the-bug drill's bug as given is not the candidate's

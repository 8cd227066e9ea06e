"""The grade of a read-the-run answer sheet: the cause chosen, and the line on what gives it away.

A sheet passes when its `cause:` names the planted cause and its `why:` line names a statistic that
shows it (one of the drill's give-away keywords). Whatever was chosen, the report explains which
statistic gives the cause away, with the log's numbers; a wrong choice is named (a `Diagnosis` with
the card that teaches it) and told what in the log rules it out. The sheet is text: it is read here,
never run.
"""
from __future__ import annotations

import re
import time

from checker.report import CheckResult, Diagnosis, Report
from drills.runlog import LETTERS, is_chinese_sheet, parse_sheet, resolve_cause


def _mentions(line: str, keywords: tuple[str, ...]) -> list[str]:
    low = line.lower()
    return [k for k in keywords if re.search(rf"(?<![a-z0-9_]){re.escape(k)}(?![a-z0-9_])", low)]


def grade(source: str, drill) -> Report:
    """The report of the sheet `source` for the read-the-run drill `drill`."""
    t0 = time.perf_counter()
    written, why = parse_sheet(source)
    chosen = resolve_cause(drill, written)
    letters = ", ".join(LETTERS[:len(drill.choices)])
    if written is None or not written.strip():
        chose = CheckResult("cause-chosen", "a cause is chosen", False,
                            f"Write the letter of a cause after `cause:` ({letters}).")
    elif chosen is None:
        chose = CheckResult("cause-chosen", "a cause is chosen", False,
                            f"`cause: {written}` is none of the choices; write one of {letters}.")
    else:
        chose = CheckResult("cause-chosen", "a cause is chosen", True)
    right = chosen == drill.answer
    answer = drill.causes[drill.answer]
    cause = CheckResult("cause-right", "the cause is the planted one", right,
                        "" if right or chosen is None else f"You chose: {drill.causes[chosen].text}.")
    named = _mentions(why, drill.giveaway["keywords"])
    if not why.strip():
        line = CheckResult("why-statistic", "the `why:` line names the statistic that gives it away", False,
                           "Write after `why:` which statistic, with its numbers, shows the cause.")
    elif not named:
        line = CheckResult("why-statistic", "the `why:` line names the statistic that gives it away", False,
                           "Your line names none of the statistics that show this cause ("
                           + ", ".join(drill.giveaway["keywords"]) + ").")
    else:
        line = CheckResult("why-statistic", "the `why:` line names the statistic that gives it away", True)
    checks = [chose, cause, line]
    diagnoses = []
    if chosen is not None and not right:
        picked = drill.causes[chosen]
        diagnoses.append(Diagnosis(chosen, picked.text, drill.why_not[chosen], picked.card))
    # once a cause is chosen, the grade says what gives the planted one away (an empty sheet learns nothing)
    if not chosen:
        notes = []
    elif is_chinese_sheet(source):  # the sheet `start --lang zh` wrote: the explanation in Chinese too
        notes = [f"原因：{answer.zh}。暴露它的是：{drill.giveaway['zh']}"]
    else:
        notes = [f"The cause: {answer.text}. What gives it away: {drill.giveaway['en']}"]
    passed = right and line.passed
    return Report(drill=drill.id, framework="run", passed=passed, checks=checks, diagnoses=diagnoses,
                  notes=notes, elapsed_ms=(time.perf_counter() - t0) * 1000)

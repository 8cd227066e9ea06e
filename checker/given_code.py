"""A fix-the-bug drill's code as given is not the candidate's mistake.

A pitfall drill's starter is a catalogued buggy copy of its base drill's model answer. Checking that
file untouched would name the planted mistake, explain its fix and, through the progress hook, send
its card back as an Again review, add it to the pitfall profile and to a mock's scorecard, as if the
candidate had made it. `withhold_planted` turns such a report into what a bug report gives: the
checks fail, the counterexample shows what differs, and no mistake is named or explained.

"Untouched" means the same program: the code parses to the same syntax tree as the starter (the
`# ppo-drill drill:` line, comments and blank lines do not count). Any edit that changes the program
is the candidate's own code and is diagnosed as usual.
"""
from __future__ import annotations

import ast

from checker.report import Report
from drills import get_drill


def _tree(source: str) -> str | None:
    try:
        return ast.dump(ast.parse(source))
    except (SyntaxError, ValueError):
        return None


def is_given_code(source: str, drill_id: str, framework: str) -> bool:
    """True when `source` is the pitfall drill `drill_id`'s starter for `framework`, unedited."""
    try:
        drill = get_drill(drill_id)
    except KeyError:
        return False
    if not drill.is_pitfall or framework not in drill.frameworks:
        return False
    mine = _tree(source)
    return mine is not None and mine == _tree(drill.starter(framework))


def withhold_planted(report: Report, source: str) -> Report:
    """The report of a check, with its diagnoses withheld when `source` is a fix-the-bug drill's code
    as given (`is_given_code`); any other report is returned unchanged."""
    if report.passed or not report.diagnoses or not is_given_code(source, report.drill, report.framework):
        return report
    report.diagnoses = []
    report.given_code = True
    return report

"""The verdict of one check as data (`Report`) and its two faces: one JSON object for tools and the
editor, and a readable terminal report for a candidate.

The app reads reports from its first screen on, so this module is on the app's start-up path: it loads
neither numpy nor the sandbox package (which does); what an answer printed is made visible by the
sandbox's `visible`, imported where it is used."""
from __future__ import annotations

import math
import textwrap
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CheckResult:
    id: str
    title: str
    passed: bool
    message: str = ""


@dataclass
class Diagnosis:
    id: str
    title: str
    explanation: str
    card: str | None
    explains: list[str] = field(default_factory=list)  # the parts of the behaviour it explains (all: empty)
    alternative_to: str | None = None  # an earlier name whose behaviour this one shares exactly: either applies


@dataclass
class Unexplained:
    """A part of the answer's behaviour that differs from the reference and that no catalogued mistake
    explains: what differs there, never a guessed name."""
    axis: str
    differs: str


@dataclass
class Counterexample:
    """The smallest input found that shows the failed check: inputs, what the reference gives, what the
    answer gave, and where they differ."""
    check: str
    label: str
    inputs: dict[str, Any]
    expected: dict[str, Any]
    got: dict[str, Any]
    where: str = ""


#: Error kinds of a check whose code never ran (see `Report.code_ran`).
NOT_RUN = ("syntax", "missing-function")


@dataclass
class RunError:
    """Why a check could not judge the answer as a whole: `kind` is "syntax", "missing-function",
    "signature", "exception", "timeout", "memory", "no-tests" ... (the sandbox's and the graders' words),
    `message` the sentence shown, `line` the answer's line it points at, `detail` a traceback's tail."""
    kind: str
    message: str
    line: int | None = None
    detail: str = ""


@dataclass
class BugOutcome:
    """One known bug a graded test file was run against: caught (by which of its tests) or missed, with
    the nudge that says which input would expose it."""
    id: str
    title: str
    card: str | None
    caught: bool
    by: list[str] = field(default_factory=list)
    nudge: str = ""


@dataclass
class TestFailure:
    """One test of a graded file that failed on a right answer (a false alarm): `test` is None when
    the file did not finish against that answer at all; `reason` says why it probably failed."""
    __test__ = False  # not a pytest test class
    test: str | None
    message: str
    reason: str = ""
    line: int | None = None


@dataclass
class RightOutcome:
    """One right answer a graded test file was run against: passed, or the tests that failed on it."""
    id: str
    title: str
    passed: bool
    failures: list[TestFailure] = field(default_factory=list)


@dataclass
class TestGrade:
    """A graded test file (test-writing drills): its tests, how many of the known bugs they caught,
    its false alarms counted in tests (each test that fails on a right answer, plus one when the file did
    not finish against one), and per bug and per right answer what happened."""
    __test__ = False  # not a pytest test class
    caught: int
    known: int
    false_alarms: int
    right_failed: int
    tests: list[str] = field(default_factory=list)
    bugs: list[BugOutcome] = field(default_factory=list)
    right: list[RightOutcome] = field(default_factory=list)

    @property
    def caught_share(self) -> float | None:
        """The share of known bugs caught, 0 with any false alarm (a suite that rejects right answers
        cannot be trusted); None when there are no known bugs. What the schedule rates a failed file by."""
        if not self.known:
            return None
        return 0.0 if self.false_alarms else self.caught / self.known

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "TestGrade":
        return cls(data["caught"], data["known"], data["false_alarms"], data.get("right_failed", 0),
                   list(data.get("tests", [])),
                   [BugOutcome(**b) for b in data.get("bugs", [])],
                   [RightOutcome(r["id"], r["title"], r["passed"], [TestFailure(**f) for f in r.get("failures", [])])
                    for r in data.get("right", [])])


@dataclass
class Report:
    drill: str
    framework: str
    passed: bool
    checks: list[CheckResult] = field(default_factory=list)
    diagnoses: list[Diagnosis] = field(default_factory=list)
    unexplained: list[Unexplained] = field(default_factory=list)
    counterexample: Counterexample | None = None
    error: RunError | None = None
    elapsed_ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    stdout: str = ""
    # A graded test file (test drills): caught / known bugs, false alarms, and per bug and right answer
    # what happened (see checker.testwriting.grade); None for an answer.
    tests: TestGrade | None = None
    # A fix-the-bug drill's code checked as given (`checker.given_code`): its planted bug is not the
    # candidate's mistake, so no mistake is named; the failing checks and the counterexample remain.
    given_code: bool = False

    @property
    def mistake_ids(self) -> list[str]:
        return [d.id for d in self.diagnoses]

    @property
    def code_ran(self) -> bool:
        """False when the code never ran: it does not compile, or defines no function of the drill (a
        snippet, or a file checked against the wrong drill). Such a check is not an attempt at the drill."""
        return not (self.error is not None and self.error.kind in NOT_RUN)

    def to_json(self) -> dict:
        """The report as JSON (what `ppo-drill check --json` prints): drill, framework, passed, checks, diagnoses, counterexample, error,
        elapsed_ms (plus `notes` about the isolation in force)."""
        return {
            "drill": self.drill,
            "framework": self.framework,
            "passed": self.passed,
            "checks": [asdict(c) for c in self.checks],
            "diagnoses": [asdict(d) for d in self.diagnoses],
            "unexplained": [asdict(u) for u in self.unexplained],
            "counterexample": jsonable(asdict(self.counterexample)) if self.counterexample else None,
            "error": asdict(self.error) if self.error is not None else None,
            "elapsed_ms": round(self.elapsed_ms, 1),
            "notes": list(self.notes),
            "stdout": printed_for_json(self.stdout),
            "tests": self.tests.to_json() if self.tests is not None else None,
            "given_code": self.given_code,
        }

    def render(self, color: bool = False) -> str:
        return render(self, color)


def jsonable(value: Any) -> Any:
    """Arrays as (nested) lists, non-finite floats as the strings "nan", "inf", "-inf"."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return jsonable(value.tolist())
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else ("nan" if math.isnan(value) else ("inf" if value > 0 else "-inf"))
    return value


def tests_summary(tests: TestGrade) -> str:
    """A graded test file in one line: its tests, the known bugs they caught, and its false alarms
    counted in tests (how many of its tests fail on a right answer)."""
    n, alarms = len(tests.tests), tests.false_alarms
    right_failed = tests.right_failed
    on = f" on {right_failed} right answer{'s' if right_failed != 1 else ''}" if right_failed else " on right answers"
    if not alarms:
        alarm_text = "no false alarm on the right answers"
    elif alarms == 1:
        alarm_text = f"1 false alarm (a test that fails{on})"
    else:
        alarm_text = f"{alarms} false alarms ({alarms} tests that fail{on})"
    return f"Your {n} test{'s' if n != 1 else ''} caught {tests.caught} of {tests.known} known bugs; {alarm_text}"


def fmt(value: Any) -> str:
    """A compact rendering of a value for a table cell: [1.0, 0.5], 0.8725, integers (token ids) as
    integers, T/F for booleans; accepts numpy values and their JSON form (nested lists, "nan"/"inf"
    strings)."""
    if value is None:
        return "—"
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "T" if value else "F"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(x) for x in value) + "]"
    if isinstance(value, int):  # token ids, counts, epochs: as written
        return str(value)
    if isinstance(value, float):
        return _num(value)
    return str(value)


def _num(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if abs(x) < 1e-12:  # -0.0, and rounding noise around 0 (-1.4e-17): 0.0, as a prompt prints it
        return "0.0"
    if x == int(x) and abs(x) < 1e6:
        return f"{x:.1f}"
    return f"{x:.6g}"


def render(report: Report, color: bool = False) -> str:
    def paint(text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if color else text

    ok, bad = paint("✓", "32"), paint("✗", "31")
    lines = []
    verdict = paint("PASS", "1;32") if report.passed else paint("FAIL", "1;31")
    lines.append(f"{verdict}  {report.drill} ({report.framework})  {report.elapsed_ms:.0f} ms")
    if report.error is not None:
        err = report.error
        where = f" (line {err.line})" if err.line else ""
        lines.append("")
        lines.append(f"{paint(err.kind, '1;31')} error{where}: {err.message}")
        if err.detail:
            lines.extend("    " + ln for ln in err.detail.rstrip().splitlines()[-8:])
    if report.tests:
        t = report.tests
        lines.append("")
        lines.append(paint(tests_summary(t) + ".", "1"))
    if report.checks:
        lines.append("")
        for c in report.checks:
            lines.append(f"  {ok if c.passed else bad} {c.title}")
            if not c.passed and c.message:
                lines.extend(_wrap(c.message, "      "))
    if report.counterexample:
        cx = report.counterexample
        lines.append("")
        label = "a random case" if cx.label == "random" else cx.label.removeprefix("edge: ")
        lines.append(paint(f"Smallest counterexample ({label}):", "1"))
        width = max(len(k) for k in [*cx.inputs, *cx.expected, "expected", "got"]) + 2
        for k, v in cx.inputs.items():
            lines.append(f"  {k:<{width}} {fmt(v)}")
        for k in cx.expected:
            lines.append(f"  {('expected ' + k):<{width + 9}} {fmt(cx.expected[k])}")
            lines.append(f"  {('got ' + k):<{width + 9}} {fmt(cx.got.get(k))}")
        if cx.where:
            lines.append(f"  first difference at {cx.where}")
    if report.diagnoses:
        lines.append("")
        lines.append(paint("Diagnosis:", "1;33"))
        for d in report.diagnoses:
            if d.alternative_to:
                lines.append(f"  or, with exactly the same behaviour here: {paint(d.title, '1')}  [{d.id}]")
            else:
                lines.append(f"  {paint(d.title, '1')}  [{d.id}]")
            if d.explains and not d.alternative_to:
                lines.extend(_wrap("explains " + "; ".join(d.explains), "    "))
            lines.extend(_wrap(d.explanation, "    "))
            if d.card:
                lines.append(f"    Review: ppo-drill review (card {d.card})")
    if report.given_code:
        lines.append("")
        lines.append("This is the code as given: the checks above fail where its bug shows. Find the bug; the "
                     "counterexample shows what differs. Your fix is checked like any answer.")
    if report.unexplained:
        lines.append("")
        head = "Also differs (no catalogued mistake explains it):" if report.diagnoses or report.given_code else \
            "No catalogued mistake explains this; what differs:"
        lines.append(paint(head, "1;33"))
        for u in report.unexplained:
            lines.extend(_wrap(f"{u.axis}: {u.differs}", "  - ", "    "))
    elif not report.diagnoses and not report.passed and not report.error and not report.tests \
            and not report.given_code and report.framework != "run":  # a read-the-run sheet runs nothing
        lines.append("")
        lines.append("No catalogued mistake matches this behaviour; compare with the counterexample above.")
    if report.stdout.strip():
        lines.append("")
        lines.append("Your code printed:")
        lines.extend("  " + ln for ln in printed_lines(report.stdout))
    for note in report.notes:
        lines.append(paint(f"note: {note}", "2"))
    return "\n".join(lines)


#: how much of what an answer printed a report shows: the last lines, each cut at a width
PRINTED_LINES = 10
PRINTED_WIDTH = 200
PRINTED_JSON_CHARS = 8000


def printed_lines(stdout: str, lines: int = PRINTED_LINES, width: int = PRINTED_WIDTH) -> list[str]:
    """The last `lines` lines an answer printed, each cut at `width` characters, control characters
    shown as escapes (so printed escape sequences cannot redraw the verdict), with a first line
    saying how many earlier lines are not shown."""
    from checker.sandbox.text import visible  # the app's start-up path: not the sandbox package's numpy

    all_lines = visible(stdout).rstrip().splitlines()
    shown = [ln if len(ln) <= width else ln[:width] + f"… ({len(ln) - width} more characters)"
             for ln in all_lines[-lines:]]
    if len(all_lines) > lines:
        shown.insert(0, f"… ({len(all_lines) - lines} earlier lines not shown)")
    return shown


def printed_for_json(stdout: str, limit: int = PRINTED_JSON_CHARS) -> str:
    """What an answer printed, for JSON consumers: control characters shown as escapes, at most
    `limit` characters (the end, as the text report shows the last lines; a first line says how
    much was cut)."""
    from checker.sandbox.text import visible  # the app's start-up path: not the sandbox package's numpy

    text = visible(stdout)
    if len(text) <= limit:
        return text
    return f"… ({len(text) - limit} earlier characters not shown)\n" + text[-limit:]


def _wrap(text: str, indent: str, subsequent: str | None = None, width: int = 100) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), width=width, initial_indent=indent,
                         subsequent_indent=indent if subsequent is None else subsequent)


def report_from_json(data: dict) -> Report:
    """Rebuild a Report from `to_json()` output (the warm checker worker sends reports as JSON)."""
    cx = data.get("counterexample")
    return Report(
        drill=data["drill"], framework=data["framework"], passed=data["passed"],
        checks=[CheckResult(**c) for c in data.get("checks", [])],
        diagnoses=[Diagnosis(**d) for d in data.get("diagnoses", [])],
        unexplained=[Unexplained(**u) for u in data.get("unexplained", [])],
        counterexample=Counterexample(**cx) if cx else None,
        error=RunError(**data["error"]) if data.get("error") else None, elapsed_ms=data.get("elapsed_ms", 0.0),
        notes=data.get("notes", []), stdout=data.get("stdout", ""),
        tests=TestGrade.from_json(data["tests"]) if data.get("tests") else None,
        given_code=bool(data.get("given_code", False)),
    )

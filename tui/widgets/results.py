"""`ResultsPanel`: a checker verdict for a person — PASS/FAIL, the named mistakes with their
explanations and the card to review (first: they are what to learn), each failed check with its
message, and the smallest counterexample (inputs, expected, got). Shared by the drill workspace and
paste-and-check."""
from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import LoadingIndicator, Static

from checker.report import Report, fmt, printed_lines, tests_summary


ERROR_TITLES = {  # checker.sandbox.model.ERROR_KINDS and the engine's own, as a person reads them
    "syntax": "Syntax error", "missing-function": "Function not found",
    "exception": "Your code raised an error", "timeout": "Too slow: stopped",
    "memory": "Out of memory", "crash": "Your code crashed", "output": "Too much output",
    "signature": "Wrong signature",
}


def _indent(text: str, style: str = "") -> Padding:
    """A paragraph wrapped under its heading, not under the margin."""
    return Padding(Text(text, style=style), (0, 0, 0, 2))


def _marked(mark: str, style: str, text: Text) -> Table:
    """A list item whose wrapped lines stay under its text, not under the mark."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Text(mark, style=style), text)
    return grid


def _counterexample_table(report: Report) -> Table:
    """Every cell is a `Text`, never markup: a row such as `[nan, nan]` would read as a style tag and
    vanish."""
    cx = report.counterexample
    table = Table(title=Text(f"Smallest counterexample ({cx.label})"), title_justify="left",
                  show_header=True, header_style="bold", expand=True, pad_edge=False)
    table.add_column("", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for name, value in cx.inputs.items():
        table.add_row(Text(name), Text(fmt(value)))
    for name, value in cx.expected.items():
        table.add_row(Text(f"expected {name}"), Text(fmt(value), style="green"))
        table.add_row(Text(f"got {name}"), Text(fmt(cx.got.get(name)), style="red"))
    if cx.where:
        table.caption = Text(f"first difference at {cx.where}")
        table.caption_justify = "left"
    return table


def report_renderable(report: Report, card_key: str | None = None, reveal: bool = True) -> Group:
    """The body of the panel for `report` (everything below the verdict line). With `reveal` False
    (a mock run like an interview) only what an interviewer would show: errors, how many checks pass
    and the smallest failing input; no named mistake, explanation or check titles."""
    parts: list = []
    if report.error:
        err = report.error
        where = f" at line {err.line}" if err.line else ""
        head = ERROR_TITLES.get(err.kind, f"{err.kind} error")
        parts.append(Text(f"{head}{where}", style="bold red"))
        parts.append(_indent(err.message))
        if err.detail:
            parts.append(Text("\n".join(err.detail.rstrip().splitlines()[-8:]), style="dim"))
        parts.append(Text(""))
    if not reveal:
        if report.checks:
            passed = sum(1 for c in report.checks if c.passed)
            parts.append(Text(f"{passed} of {len(report.checks)} checks pass", style="bold"))
        if not report.passed:
            parts.append(Text("As in an interview, what went wrong is yours to find; the scorecard "
                              "reveals it after the mock.", style="italic"))
        parts.append(Text(""))
        if report.counterexample:
            parts.append(_counterexample_table(report))
        return Group(*parts)
    if report.diagnoses:
        groups = {d.alternative_to or d.id for d in report.diagnoses}  # alternatives: one behaviour, two names
        head = "Named mistake" if len(report.diagnoses) == 1 else (
            "Named mistake (these behave identically here)" if len(groups) == 1 else "Named mistakes")
        parts.append(Text(head, style="bold yellow"))
        for d in report.diagnoses:
            parts.append(_marked("•", "yellow", Text.assemble((d.title, "bold"), (f"  [{d.id}]", "dim"))))
            parts.append(_indent(" ".join(d.explanation.split())))
            if d.card:
                key = f" — press {card_key} to review it now" if card_key else ""
                parts.append(_indent(f"card: {d.card}{key}", style="cyan"))
        parts.append(Text(""))
    if report.tests:
        parts.append(Text(tests_summary(report.tests), style="bold"))
        parts.append(Text(""))
    elif report.given_code:
        parts.append(Text("This is the code as given: the checks below fail where its bug shows. Find the "
                          "bug; the counterexample shows what differs.", style="italic"))
        parts.append(Text(""))
    elif not report.diagnoses and not report.passed and not report.error:
        parts.append(Text("No catalogued mistake matches this behaviour; compare your output "
                          "with the counterexample below.", style="italic"))
        parts.append(Text(""))
    failed = [c for c in report.checks if not c.passed]
    if report.checks:
        passed = len(report.checks) - len(failed)
        parts.append(Text(f"{passed} of {len(report.checks)} checks pass", style="bold"))
        for check in failed:
            parts.append(_marked("✗", "bold red", Text(check.title, style="bold")))
            if check.message:
                parts.append(_indent(" ".join(check.message.split())))
        if not failed or report.tests:
            parts.extend(_marked("✓", "green", Text(c.title)) for c in report.checks if c.passed)
        parts.append(Text(""))
    if report.counterexample:
        parts.append(_counterexample_table(report))
        parts.append(Text(""))
    if report.stdout.strip():
        parts.append(Text(""))
        parts.append(Text("Your code printed:", style="bold"))
        parts.append(Text("\n".join(printed_lines(report.stdout)), style="dim"))
    return Group(*parts)


class ResultsPanel(VerticalScroll):
    """Shows nothing yet, a check in progress, a report, or a message (checker unavailable,
    drill not detected). `report` holds the report shown, if any; `cards` the cards it names."""

    DEFAULT_CSS = """
    ResultsPanel { height: 1fr; padding: 0 1; }
    ResultsPanel:focus { background: $boost; }
    ResultsPanel #verdict { text-style: bold; padding: 0 1; margin-bottom: 1; }
    ResultsPanel #verdict.-pass { background: $success; color: $text; }
    ResultsPanel #verdict.-fail { background: $error; color: $text; }
    ResultsPanel #verdict.-info { background: $boost; }
    ResultsPanel LoadingIndicator { height: 3; display: none; }
    ResultsPanel.-running LoadingIndicator { display: block; }
    """

    def __init__(self, card_key: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.card_key = card_key
        self.report: Report | None = None

    def compose(self) -> ComposeResult:
        yield Static("No checks run yet.", id="verdict", classes="-info")
        yield LoadingIndicator()
        yield Static("", id="body")

    @property
    def cards(self) -> list[str]:
        if self.report is None:
            return []
        cards = [d.card for d in self.report.diagnoses if d.card]
        if self.report.tests:  # a test file: the cards of the bugs it did not catch
            cards += [b.card for b in self.report.tests.bugs if not b.caught and b.card]
        return list(dict.fromkeys(cards))

    def _set(self, verdict: str, kind: str, body="") -> None:
        head = self.query_one("#verdict", Static)
        head.update(Text(verdict))  # plain text: a drill id or a message is never read as markup
        for cls in ("-pass", "-fail", "-info"):
            head.set_class(cls == kind, cls)
        self.query_one("#body", Static).update(body)
        self.scroll_home(animate=False)

    def show_running(self, note: str = "") -> None:
        self.report = None
        self.add_class("-running")
        self._set("Checking…", "-info", Text(note))

    def show_message(self, title: str, message: str) -> None:
        self.report = None
        self.remove_class("-running")
        self._set(title, "-fail", Text(message))

    def show_report(self, report: Report, extra: str = "", reveal: bool = True) -> None:
        """Show `report`; `reveal` False hides the diagnosis (see `report_renderable`)."""
        self.report = report
        self.remove_class("-running")
        verdict = (f"{'PASS' if report.passed else 'FAIL'}  {report.drill} ({report.framework})"
                   f"  {report.elapsed_ms:.0f} ms{extra}")
        self._set(verdict, "-pass" if report.passed else "-fail",
                  report_renderable(report, self.card_key, reveal))

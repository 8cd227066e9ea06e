"""`ppo-drill check` / `watch` verdicts are recorded as attempts (source "cli") through the hook
`tui.cli` registers; a broken progress file costs one warning line, never the check's output."""
from __future__ import annotations

from checker import cli as checker_cli
from checker.report import Diagnosis, Report, RunError
from cards.progress.paths import data_dir
from cards.progress.store import open_store
from tui import cli
from tui.commands import record_cli_check


def test_the_front_registers_the_hook_once():
    cli.build_parser()
    cli.build_parser()
    assert checker_cli.REPORT_HOOKS.count(record_cli_check) == 1


def test_a_cli_verdict_is_recorded_and_sends_the_named_card_back():
    report = Report("gae", "numpy", False, diagnoses=[
        Diagnosis("gae-missing-gamma", "GAE recursion without gamma", "...", "gae-backward-recursion")])
    record_cli_check(report, None, "def compute_gae(): ...")
    with open_store() as store:
        (attempt,) = store.attempts()
        assert (attempt.drill_id, attempt.source, attempt.passed, attempt.mistakes) == (
            "gae", "cli", False, ["gae-missing-gamma"])
        assert attempt.code == "def compute_gae(): ..."
        assert [(r.card_id, r.source) for r in store.reviews()] == [("gae-backward-recursion", "checker")]


def test_a_corrupt_store_gives_one_warning_line_and_is_left_untouched(capsys):
    path = data_dir() / "progress.sqlite3"
    path.write_bytes(b"not sqlite")
    record_cli_check(Report("gae", "numpy", True), None, "x = 1")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not recorded" in err and str(path) in err
    assert path.read_bytes() == b"not sqlite"


def test_an_unknown_drill_is_not_recorded(capsys):
    record_cli_check(Report("no-such-drill", "numpy", True), None, "x = 1")
    assert capsys.readouterr().err == ""
    with open_store() as store:
        assert store.attempts() == []


def test_a_file_that_never_ran_is_not_an_attempt(capsys):
    """As on the paste screen: a syntax error, or a file with no function of the drill (checked
    against the wrong drill), is not an attempt; code that ran and raised is one."""
    for kind in ("syntax", "missing-function"):
        record_cli_check(Report("policy-loss", "numpy", False, error=RunError(kind, "x")), None, "x")
        assert "not counted as an attempt at policy-loss" in capsys.readouterr().err
    with open_store() as store:
        assert store.attempts() == [] and store.drill_state("policy-loss") is None
    record_cli_check(Report("policy-loss", "numpy", False, error=RunError("exception", "x")), None, "x")
    with open_store() as store:
        assert [a.drill_id for a in store.attempts()] == ["policy-loss"]

"""Hostile test files (tests/hostile_tests/): test files for the test-writing drills that try to earn a
pass they did not earn by telling the implementations apart some other way than by what they
compute: the grader's frames, its cached implementations found through the garbage collector, the
reference core found in memory, timing, object ids and names, counting library calls after
monkeypatching numpy or torch, a mark shared between runs, and a fork whose copy reports instead of the
original. None may pass.

They are graded as the app's warm checker worker grades them: with the reference core and a
drill's examples, expected results and catalogue variants already in memory (the worker loads them
at start-up), so whatever an oracle in memory could give a test file is there to be found."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.warm_checker import check
from checker.sandbox import Limits
from checker.testwriting.grade import _Order
from checker.testwriting.implementations import implementations

HOSTILE = Path(__file__).parent / "hostile_tests"
NEW = ["reads_the_graders_frames", "finds_the_implementations_in_memory", "uses_the_reference_from_memory",
       "tells_them_apart_by_timing", "tells_them_apart_by_ids_and_names", "counts_library_calls",
       "shares_a_location_between_runs", "forks_and_returns", "patches_torch_globally",
       "walks_the_frozen_generation"]
ROOT = os.geteuid() == 0
# One worker runs these tests: what the warm worker holds (`warm_worker`) is made there once.
pytestmark = pytest.mark.xdist_group("hostile-tests")


@pytest.fixture(scope="module", autouse=True)
def warm_worker():
    """What the app's checker worker has in memory before any test file arrives."""
    from tests.warm_checker import CHECKER

    for drill, framework in (("gae", "numpy"), ("policy-loss", "torch")):
        CHECKER.plan(drill, framework).warm()
        CHECKER.catalogue(drill, framework).variants()
        CHECKER.implementations(f"test-{drill.replace('_', '-')}", framework)


def grade(name: str):
    """Graded for the drill its `# drill: <id> <framework>` line names (test-gae in NumPy if none)."""
    source = (HOSTILE / f"{name}.py").read_text()
    head = re.search(r"^# drill: (\S+) (\S+)", source, re.M)
    drill, framework = head.groups() if head else ("test-gae", "numpy")
    # room to run against every implementation on a busy machine: these files are judged on what they
    # catch, not on their time (the time limit has tests of its own)
    return check(source, drill=drill, framework=framework, limits=Limits(wall_s=60, cpu_s=60))


def test_every_hostile_test_file_is_in_this_corpus():
    assert set(NEW) <= {p.stem for p in HOSTILE.glob("*.py")}


@pytest.mark.parametrize("name", NEW)
def test_no_hostile_test_file_passes(name):
    report = grade(name)
    assert not report.passed, report.render()
    assert report.error is None and report.tests is not None, report.render()  # it ran, and was graded


@pytest.mark.parametrize("name", ["reads_the_graders_frames", "finds_the_implementations_in_memory",
                                  "uses_the_reference_from_memory", "walks_the_frozen_generation"])
def test_what_the_grader_knows_is_not_in_the_childs_memory(name):
    """Each file fails every implementation when it finds nothing (its assertion needs the grader's
    knowledge); a false alarm on every right answer shows it found nothing against any of them."""
    report = grade(name)
    right = list(report.tests.right)
    assert right and not any(r.passed for r in right), report.render()
    messages = " ".join(f.message for r in right for f in r.failures)
    assert "'right'" not in messages, messages


def test_a_forked_copy_of_the_test_file_never_reports():
    """The copy says every implementation fails; only the original's results count, so nothing is
    caught and no right answer is rejected (before, whichever copy wrote first decided each run)."""
    report = grade("forks_and_returns")
    assert report.tests.caught == 0 and report.tests.false_alarms == 0, report.render()


def test_no_mark_survives_from_one_run_to_the_next():
    """Every run finds itself the first (no false alarm), so no run learns that another came before."""
    report = grade("shares_a_location_between_runs")
    assert report.tests.false_alarms == 0 and report.tests.caught == 0, report.render()
    assert "PPO_DRILL_HOSTILE_MARK" not in os.environ
    for mark in ("/tmp/ppo-drill-hostile-mark", "/dev/shm/ppo-drill-hostile-mark",
                 os.path.expanduser("~/ppo-drill-hostile-mark")):
        assert not os.path.exists(mark) and not os.path.exists(mark + ".txt"), mark


def test_the_child_holds_only_the_sandbox_of_the_checkers_packages():
    """A test file's process is forked from the sandbox's zygote: of the checker's packages it holds the
    sandbox and the objects a drill hands over, nothing of the reference, the drills or the grader."""
    source = ("import sys\nfrom solution import compute_gae\n\n\ndef test_report_modules():\n"
              "    names = sorted(n for n in sys.modules if n.split('.')[0] in ('checker', 'drills', 'cards', 'tui'))\n"
              "    others = [n for n in names if n != 'checker' and not n.startswith(('checker.sandbox', 'checker.handouts'))]\n"
              "    assert False, f'{len(names)} loaded; others: {others}'\n")  # a report's message is cut short
    report = check(source, drill="test-gae", framework="numpy")
    message = report.tests.right[0].failures[0].message
    assert "loaded; others: []" in message and not message.startswith("0 "), message


def test_runs_after_the_model_answer_come_in_a_random_order():
    impls = implementations("test-gae", "numpy")
    orders = {tuple(_Order(impls).order) for _ in range(20)}
    assert all(order[0] == 0 and sorted(order) == list(range(len(impls))) for order in orders)
    assert len(orders) > 1


def test_a_test_files_words_reach_no_terminal_raw(capsys, tmp_path):
    """Test names and failure messages come back with every control character shown as an escape, in the
    text report, its JSON and the app's results panel: a file cannot draw its own PASS."""
    import io
    import json

    from rich.console import Console

    from tests.warm_checker import main  # `ppo-drill` in-process, its checks by the warm checker
    from tui.widgets.results import report_renderable

    unsafe = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    report = grade("fakes_the_report")
    text = report.render(color=False)
    assert not report.passed and not unsafe.search(text) and "\\x1b[1;32mPASS" in text, text
    console = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    console.print(report_renderable(report))
    assert not unsafe.search(console.file.getvalue())
    answer = tmp_path / "test_gae.py"
    answer.write_text("# ppo-drill drill: test-gae\n" + (HOSTILE / "fakes_the_report.py").read_text())
    assert main(["--data-dir", str(tmp_path / "d"), "check", "--json", str(answer)]) == 1
    data = json.loads(capsys.readouterr().out)

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for k, v in value.items():
                yield k
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    shown = list(strings(data))
    assert not any(unsafe.search(s) for s in shown) and any("\\x1b[1;32mPASS" in s for s in shown)

"""Verdicts stay honest whatever an answer returns or prints (tests/hostile/verdicts/*.py).

Each file there is a whole answer to a drill with a header: `# drill:`, `# framework:`, and
`# expect: output-type` (a result that is not real floats: complex, bool, object, string; the values
may even be right) or `# expect: fail`. Printed output reaches the terminal, JSON consumers and the
app's results panel with every control character shown as an escape, so an answer cannot draw a
PASS over its FAIL. The same answers as an ordinary user: tests/test_sandbox_unprivileged.py."""
from __future__ import annotations

import io
import json
import re
import os
from pathlib import Path

import pytest
from rich.console import Console

from tests.warm_checker import check
from checker.report import PRINTED_LINES, printed_for_json, printed_lines
from checker.sandbox.text import visible
from tests.warm_checker import main  # `ppo-drill` in-process, its checks by the warm checker
from tui.widgets.results import report_renderable

VERDICTS = Path(__file__).parent / "hostile" / "verdicts"
CORPUS = sorted(VERDICTS.glob("*.py"))
# what no text shown to a person may contain: C0 controls but \n and \t, DEL, C1, bidi overrides
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def header(path: Path) -> dict[str, str]:
    found = dict(re.findall(r"^# (drill|framework|expect): (\S+)", path.read_text(), re.M))
    assert {"drill", "framework", "expect"} <= set(found), f"{path.name}: header incomplete"
    return found


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_hostile_results_fail_with_the_right_reason(path):
    h = header(path)
    # the verdict is the first run's; re-running a memory-walking answer on smaller inputs adds nothing here
    report = check(path.read_text(), h["drill"], h["framework"], shrink_failure=False)
    assert not report.passed
    failed = {c.id for c in report.checks if not c.passed}
    if h["expect"] == "output-type":
        assert report.mistake_ids == ["output-type"] and failed == {"output-type"}, (
            report.mistake_ids, failed)
        message = next(c.message for c in report.checks if c.id == "output-type")
        assert re.search(r"complex|bool|str|object|float|number", message), message


def test_printed_escape_sequences_cannot_fake_a_pass(tmp_path, capsys):
    path = VERDICTS / "gae_numpy_prints_a_fake_pass.py"
    answer = tmp_path / "answer.py"
    answer.write_text(path.read_text())
    assert main(["check", str(answer)]) == 1
    text = capsys.readouterr().out
    assert text.startswith("FAIL") and not UNSAFE.search(text)
    assert "\\x1b]0;ppo-drill: PASS\\x07" in text and "\\u202e" in text  # shown, not obeyed

    assert main(["check", "--json", str(answer)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is False and not UNSAFE.search(data["stdout"]) and "\\x1b[2J" in data["stdout"]

    report = check(path.read_text(), "gae", "numpy")
    console = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    console.print(report_renderable(report))
    panel = console.file.getvalue()
    assert "Your code printed:" in panel and not UNSAFE.search(panel) and "\\x1b[1;32mPASS" in panel


def test_text_from_the_answer_is_made_visible_everywhere():
    """Exception messages, class names, reprs and signatures cross the sandbox boundary visible."""
    from checker.sandbox import Call, Limits, run_candidate

    source = ('Evil = type("\\x1b[2J\\x1b[32mPASS", (Exception,), {})\n'
              'def answer(x, flag="\\x1b]0;t\\x07"):\n'
              '    print("a\\r\\nb\\x00\\x9b")\n'
              '    raise Evil("\\x1b[1;32mPASS\\x07 \\u202eSSAP")\n')
    result = run_candidate(source, "answer", [Call((1,))], limits=Limits(wall_s=10))
    shown = [result.stdout, result.error.message, result.error.detail, result.error.exc_type,
             json.dumps(result.signature, ensure_ascii=False)]
    assert not any(UNSAFE.search(s) for s in shown), shown
    assert result.stdout == "a\nb\\x00\\x9b\n"
    assert "\\x1b[2J\\x1b[32mPASS" in result.error.exc_type and "\\u202eSSAP" in result.error.message


def test_visible_is_idempotent_and_keeps_printable_text():
    text = "loss 0.25 ✓ — Ünïcode 中文\tok\n\x1b[2J\x07\x9b\u200b\u2028"
    once = visible(text)
    assert visible(once) == once and not UNSAFE.search(once)
    assert once.startswith("loss 0.25 ✓ — Ünïcode 中文\tok\n") and "\\x1b[2J\\x07\\x9b\\u200b\\u2028" in once


def test_printed_output_is_capped_in_every_face():
    stdout = "".join(f"line {i}\n" for i in range(1000)) + "x" * 5000 + "\n"
    lines = printed_lines(stdout)
    assert len(lines) == PRINTED_LINES + 1 and lines[0].startswith("… (991 earlier lines")
    assert len(lines[-1]) < 300 and lines[-1].endswith("(4800 more characters)")
    js = printed_for_json(stdout)
    assert len(js) < 8100 and js.startswith("… (") and js.endswith("x\n")


MEMORY_WALKS = ["gae_numpy_calls_the_reference_from_memory.py", "gae_numpy_unfreezes_the_collector.py",
                "gae_numpy_walks_the_frozen_generation.py", "gae_numpy_reads_the_checkers_frames.py"]


@pytest.mark.parametrize("name", MEMORY_WALKS)
def test_an_answer_that_looks_for_the_reference_in_memory_fails_in_a_warm_checker(name):
    """The app's checker worker has the reference core and every drill's expected results loaded
    before any answer arrives. An answer that looks for them in its process's memory (through
    sys.modules, the collector, the frozen generation walked with ctypes, the caller's frames) and
    returns what the reference computes finds nothing: its process is forked from the sandbox's zygote,
    which never held them. Fresh child and spare alike."""
    import checker.reference  # noqa: F401 - loaded, as in the warm worker
    from checker.engine import Checker
    from checker.sandbox import discard_spare

    checker = Checker()
    checker.plan("gae", "numpy").warm()  # every expected result computed, as in the warm worker
    source = (VERDICTS / name).read_text()
    assert not checker.check(source, "gae", "numpy", shrink_failure=False).passed
    checker.keep_warm()  # the spare the worker forks after a check
    try:
        assert not checker.check(source, "gae", "numpy", shrink_failure=False).passed
    finally:
        discard_spare()


def test_the_frozen_generation_walk_finds_the_reference_where_it_is_in_memory():
    """The walk is real: in a copy of a process that holds the reference core (as the sandbox's child
    was, before the zygote), with the collector frozen as the child freezes it, it finds and calls it."""
    import gc
    import types

    import checker.reference  # noqa: F401

    source = (VERDICTS / "gae_numpy_walks_the_frozen_generation.py").read_text()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the copy
        code = 1
        try:
            module = types.ModuleType("walker")
            exec(compile(source, "walker.py", "exec"), module.__dict__)
            gc.freeze()
            code = 0 if callable(module._oracle()) else 3
        finally:
            os._exit(code)
    assert os.waitpid(pid, 0)[1] == 0


def test_the_answers_process_holds_nothing_of_the_checkers_packages():
    """What the walk of the frozen generation reaches in a sandboxed child: no module namespace and no
    function of the checker's packages but the sandbox's own and the objects a drill hands over."""
    probe = VERDICTS.joinpath("gae_numpy_walks_the_frozen_generation.py").read_text().split("def _oracle")[0] + (
        "WALKED = []\n\n"
        "def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):\n"
        "    if not WALKED:  # once per process: what the child inherited does not change between its calls\n"
        "        WALKED.append(1)\n"
        "        names = set()\n"
        "        for o in _frozen_objects(np.__dict__, only=(dict, types.FunctionType)):\n"
        "            if type(o) is dict and isinstance(o.get('__name__'), str):\n"
        "                names.add(o['__name__'])\n"
        "            elif type(o) is types.FunctionType:\n"
        "                names.add(str(o.__module__))\n"
        "        bad = sorted(n for n in names if n.split('.')[0] in ('checker', 'drills', 'cards', 'tui')\n"
        "                     and not n.startswith(('checker.sandbox', 'checker.handouts')) and n != 'checker')\n"
        "        print('FOUND', bad)\n"
        "    return np.zeros(len(rewards)), np.zeros(len(rewards))\n")
    import checker.reference  # noqa: F401
    from tests.warm_checker import CHECKER

    CHECKER.plan("gae", "numpy").warm()  # every expected result computed, as in the warm worker
    report = check(probe, "gae", "numpy", shrink_failure=False)  # every call of the run walks the memory
    found = [line for line in report.stdout.splitlines() if line.startswith("FOUND")]
    assert found and all(line == "FOUND []" for line in found), found[:3]


def test_an_object_the_drill_hands_over_crosses_by_name():
    """The update-loop drill hands the answer its problem object; it reaches the child by its registered
    name and works there. An object the sandbox does not know cannot be handed over at all."""
    from checker.handouts import NUMPY_PROBLEM
    from checker.report import Report
    from checker.sandbox import Call, run_candidate
    from checker.sandbox.calls import CallsError

    source = "import numpy as np\ndef answer(problem):\n    return problem.value(np.ones(2), np.eye(2))\n"
    result = run_candidate(source, "answer", [Call((NUMPY_PROBLEM,))])
    assert result.ok and list(result.results[0].value) == [1.0, 1.0], result.error
    with pytest.raises(CallsError):
        run_candidate(source, "answer", [Call((Report(drill="gae", framework="numpy", passed=True),))])

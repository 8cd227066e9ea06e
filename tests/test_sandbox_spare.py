"""Spare children: forked and confined ahead of the next check, and split across slices of the calls.

A run through a spare must report exactly what a fresh single child reports, whatever the answer does
(prints, warnings, exceptions, exits, endless loops, floods) and wherever in the calls it does it: in
the first slice, in a later one, or in both. A spare is used only for the arguments it was made for,
only while young and alive, and it never sees anything of an earlier run.
"""
from __future__ import annotations

import os
import re
import signal
import time

import numpy as np
import pytest

import checker.sandbox.runner as runner
from checker.sandbox import Call, Limits, discard_spare, fork_spare, run_candidate, spare_age
from checker.sandbox.zygote import zygote

N = 12
CALLS = [Call((np.array([float(i), 1.0]),)) for i in range(N)]
SPLIT = runner._split(CALLS, 2)[1]  # the first call of the second slice
LATE = SPLIT + 2                   # a call of the second slice
EARLY = 2                          # a call of the first slice
GOOD = "import numpy as np\n\ndef answer(x):\n    return np.asarray(x) * 2\n"


def misbehaving(at: set[int], what: str) -> str:
    """An answer that does `what` on the calls numbered `at` (its input's first element) and is right
    elsewhere."""
    return (f"import os, sys, warnings\nimport numpy as np\nAT = {sorted(at)!r}\n\n"
            f"def answer(x):\n    if int(x[0]) in AT:\n        {what}\n    return np.asarray(x) * 2\n")


ANSWERS = {
    "right": GOOD,
    "prints at import and in calls": "print('loading')\n" + GOOD.replace(
        "    return", "    print('call', int(x[0]))\n    return"),
    "warns in both slices": misbehaving(set(range(N)), "warnings.warn('slow path')"),
    "warns only in the later slice": misbehaving({LATE}, "warnings.warn('late')"),
    "raises early": misbehaving({EARLY}, "raise RuntimeError('early')"),
    "raises late": misbehaving({LATE}, "raise RuntimeError('late')"),
    "raises early and late": misbehaving({EARLY, LATE}, "raise RuntimeError('here')"),
    "exits late": misbehaving({LATE}, "os._exit(3)"),
    "exits early, raises late": misbehaving({EARLY}, "os._exit(3)").replace(
        "    return np", f"    if int(x[0]) == {LATE}:\n        raise ValueError('late')\n    return np"),
    "loops forever late": misbehaving({LATE}, "while True: pass"),
    "loops forever early": misbehaving({EARLY}, "while True: pass"),
    "floods late": misbehaving({LATE}, "print('x' * 4_000_000)"),
    "returns garbage late": misbehaving({LATE}, "return object()"),
    "reads stdin": misbehaving(set(range(N)), "return np.asarray([float(len(sys.stdin.read()))])"),
    "syntax error": "def answer(x:\n",
    "fails to import": "raise ImportError('no such thing')\n",
    "defines no function": "x = 1\n",
}
LIMITS = Limits(wall_s=1.0, cpu_s=2)  # the wall-clock limit ends an endless loop first


def summary(r) -> tuple:
    """Everything a caller of the sandbox can see, but the timings."""
    err = r.error
    return (r.ok, None if err is None else (err.kind, err.call_index, err.message, err.line, err.exc_type),
            [(c.index, c.ok, _ADDRESS.sub("0x?", repr(c.value)),
              None if c.error is None else (c.error.type, c.error.message))
             for c in r.results], r.stdout, r.stdout_truncated, r.signature, sorted(r.notes))


# an object's repr names where it lies in memory, which differs from process to process
_ADDRESS = re.compile(r"0x[0-9a-f]+")


@pytest.fixture(autouse=True)
def _no_spare_left():
    yield
    discard_spare()


@pytest.mark.parametrize("name", list(ANSWERS))
def test_a_split_spare_reports_what_a_fresh_child_reports(name):
    source = ANSWERS[name]
    fresh = run_candidate(source, "answer", CALLS, limits=LIMITS)
    fork_spare("answer", CALLS, limits=LIMITS, parts=2)
    spared = run_candidate(source, "answer", CALLS, limits=LIMITS)
    assert spared.timings.get("spare") == 1.0 and spared.timings.get("parts") == 2.0
    assert summary(spared) == summary(fresh)


def test_the_answers_misbehave_where_they_are_meant_to():
    """The cases above exercise both slices: the early call is in the first, the late one in the second."""
    assert 0 < EARLY < SPLIT < LATE < N
    late = run_candidate(ANSWERS["raises late"], "answer", CALLS, limits=LIMITS)
    assert late.error.kind == "exception" and late.error.call_index == LATE and len(late.results) == LATE
    spin = run_candidate(ANSWERS["loops forever late"], "answer", CALLS, limits=LIMITS)
    assert spin.error.kind == "timeout" and spin.error.call_index == LATE


def test_results_reach_the_caller_as_they_arrive_and_the_run_says_which_count():
    seen = []
    fork_spare("answer", CALLS, limits=LIMITS, parts=2)
    r = run_candidate(ANSWERS["raises early"], "answer", CALLS, limits=LIMITS, on_result=seen.append)
    assert [c.index for c in r.results] == list(range(EARLY))
    assert {c.index for c in r.results} <= {c.index for c in seen}
    seen.clear()
    fork_spare("answer", CALLS, limits=LIMITS, parts=2)
    r = run_candidate(GOOD, "answer", CALLS, limits=LIMITS, on_result=seen.append)
    assert sorted(c.index for c in seen) == list(range(N)) == [c.index for c in r.results]


def test_a_spare_serves_only_the_arguments_it_was_made_for():
    fork_spare("answer", CALLS, limits=LIMITS)
    other = run_candidate(GOOD, "answer", list(CALLS), limits=LIMITS)  # equal, but another list
    assert "spare" not in other.timings and spare_age() is None  # the spare was ended
    fork_spare("answer", CALLS, limits=LIMITS)
    assert "spare" not in run_candidate(GOOD, "answer", CALLS, limits=Limits(wall_s=3.0)).timings
    fork_spare("answer", CALLS, limits=LIMITS)
    assert "spare" not in run_candidate(GOOD, "other", CALLS, limits=LIMITS).timings
    fork_spare("answer", CALLS, limits=LIMITS)
    assert run_candidate(GOOD, "answer", CALLS, limits=LIMITS).timings.get("spare") == 1.0
    assert spare_age() is None  # used once


def test_a_stale_or_dead_spare_gives_way_to_a_fresh_child(monkeypatch):
    fork_spare("answer", CALLS, limits=LIMITS)
    monkeypatch.setattr(runner, "SPARE_MAX_AGE_S", 0.0)
    time.sleep(0.01)
    stale = run_candidate(GOOD, "answer", CALLS, limits=LIMITS)
    assert stale.ok and "spare" not in stale.timings
    monkeypatch.undo()
    fork_spare("answer", CALLS, limits=LIMITS, parts=2)
    os.kill(runner._spare.children[1].pid, signal.SIGKILL)
    time.sleep(0.2)
    revived = run_candidate(GOOD, "answer", CALLS, limits=LIMITS)
    assert revived.ok and "spare" not in revived.timings and len(revived.results) == N


def test_discarded_spares_leave_no_process_behind():
    for parts in (1, 2):
        fork_spare("answer", CALLS, limits=LIMITS, parts=parts)
        pids = [c.pid for c in runner._spare.children]
        time.sleep(0.1)
        discard_spare()
        deadline = time.monotonic() + 2
        while any(os.path.exists(f"/proc/{pid}") for pid in pids):  # reaped by the zygote as they end
            assert time.monotonic() < deadline, [open(f"/proc/{pid}/status").read()[:200] for pid in pids
                                                  if os.path.exists(f"/proc/{pid}")]
            time.sleep(0.01)
        assert _zombies_of(zygote().pid) == []


def _zombies_of(parent: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        try:
            fields = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split() if name.isdigit() else []
        except OSError:
            continue
        if fields and fields[0] == "Z" and int(fields[1]) == parent:
            found.append(int(name))
    return found


def test_a_spare_sees_nothing_an_earlier_run_did():
    marks = ("import numpy as np\nimport sys\n\ndef answer(x):\n    np.LEFT_BEHIND = 1\n"
             "    sys.modules['numpy'].__dict__['ALSO'] = 2\n    return np.asarray(x) * 2\n")
    assert run_candidate(marks, "answer", CALLS, limits=LIMITS).ok
    fork_spare("answer", CALLS, limits=LIMITS, parts=2)
    look = ("import numpy as np\n\ndef answer(x):\n"
            "    return np.asarray([float(hasattr(np, 'LEFT_BEHIND') or hasattr(np, 'ALSO'))])\n")
    r = run_candidate(look, "answer", CALLS, limits=LIMITS)
    assert r.timings.get("spare") == 1.0 and all(float(c.value[0]) == 0.0 for c in r.results)


def test_the_split_covers_the_calls_in_order_by_their_work():
    calls = [Call((np.zeros(n),)) for n in (1, 1, 1, 4096, 1, 1)]
    starts = runner._split(calls, 2)
    assert starts[0] == 0 and len(starts) == 2 and 0 < starts[1] < len(calls)
    assert starts[1] == 4  # the big call outweighs the three small ones before it
    assert runner._split(calls[:1], 2) == [0]


def test_warnings_print_once_as_from_a_single_child():
    """Where warnings are printed (not under a test runner, which records them: hence a fresh process),
    a warning raised in both slices shows once, and one raised only in the later slice shows too."""
    import json
    import subprocess
    import sys

    script = f"""
import json, sys
sys.path.insert(0, {str(os.path.dirname(os.path.dirname(__file__)))!r})
import tests.test_sandbox_spare as t
from checker.sandbox import fork_spare, run_candidate
out = {{}}
for name in ("warns in both slices", "warns only in the later slice"):
    fresh = run_candidate(t.ANSWERS[name], "answer", t.CALLS, limits=t.LIMITS)
    fork_spare("answer", t.CALLS, limits=t.LIMITS, parts=2)
    spared = run_candidate(t.ANSWERS[name], "answer", t.CALLS, limits=t.LIMITS)
    out[name] = [fresh.stdout, spared.stdout, spared.timings.get("parts")]
print(json.dumps(out))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    both, late = out["warns in both slices"], out["warns only in the later slice"]
    assert both[0] == both[1] and both[0].count("UserWarning: slow path") == 1 and both[2] == 2.0
    assert late[0] == late[1] and late[0].count("UserWarning: late") == 1


def test_asking_again_for_the_same_young_spare_keeps_it(monkeypatch):
    fork_spare("answer", CALLS, limits=LIMITS, parts=2)
    pids = [c.pid for c in runner._spare.children]
    fork_spare("answer", CALLS, limits=LIMITS, parts=2)
    assert [c.pid for c in runner._spare.children] == pids
    fork_spare("answer", CALLS, limits=LIMITS, parts=1)  # other slices: made afresh
    assert len(runner._spare.children) == 1 and runner._spare.children[0].pid not in pids
    pids = [c.pid for c in runner._spare.children]
    monkeypatch.setattr(runner, "SPARE_MAX_AGE_S", 0.0)  # old by now: made afresh
    fork_spare("answer", CALLS, limits=LIMITS, parts=1)
    assert [c.pid for c in runner._spare.children] != pids


def _run_with_a_secret_in_this_frame():
    secret = "SECRET-IN-THE-CALLERS-FRAME"

    def on_result(result, kept=secret):  # a closure holding it too
        return secret

    finder = ("import sys\nimport numpy as np\n\ndef answer(x):\n    f, found = sys._getframe(), 0.0\n"
              "    while f is not None:\n"
              "        for v in list(f.f_locals.values()):\n"
              "            cells = [c.cell_contents for c in (getattr(v, '__closure__', None) or ())]\n"
              "            defaults = list(getattr(v, '__defaults__', None) or ())\n"
              "            if any(isinstance(w, str) and 'EMARF-SRELLAC'[::-1] in w for w in [v] + cells + defaults):\n"
              "                found = 1.0\n"
              "        f = f.f_back\n"
              "    return np.asarray([found])\n")
    return run_candidate(finder, "answer", CALLS, limits=LIMITS, on_result=on_result)


def test_the_callers_frames_are_empty_in_the_child():
    """The trusted process's calls in progress at the fork (the engine's, which hold the examples'
    expected results) show the answer no locals and no closure cells, fresh child or spare."""
    r = _run_with_a_secret_in_this_frame()
    assert r.ok and [float(c.value[0]) for c in r.results] == [0.0] * N

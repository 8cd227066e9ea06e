"""The warm checker worker the app uses: one process, many checks, usage errors passed through, and a
dead worker reported (then replaced) instead of hanging the app."""
from __future__ import annotations

import os
import signal
import sys

import pytest

from checker.answer_check import UsageError
from checker.service import CheckCancelled, CheckerClient, CheckerUnavailable
from drills import get_drill

# One worker runs these tests, so the checker worker they share (`client`) is started once.
pytestmark = pytest.mark.xdist_group("checker-worker")


@pytest.fixture(scope="module")
def client():
    c = CheckerClient()
    assert c.wait_ready(60), "the checker worker did not start"
    yield c
    c.close()


def test_client_module_is_light():
    import subprocess

    code = ("import sys\nimport checker.service\n"
            "print('torch' in sys.modules, 'numpy' in sys.modules, 'textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "False"]


def test_the_worker_does_not_import_the_command_line():
    """The app's worker and the CLI both call `checker.answer_check`; the worker never loads the CLI."""
    import ast

    import checker.service

    tree = ast.parse(open(checker.service.__file__, encoding="utf-8").read())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                 for a in n.names} | {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "checker.answer_check.run_check" in imported
    assert not {m for m in imported if m and (m == "checker.cli" or m.startswith(("checker.cli.", "tui")))}


def test_right_and_wrong_answers_through_the_worker(client):
    ok = client.check(get_drill("gae").solution("torch"))
    assert ok.passed and ok.drill == "gae" and ok.framework == "torch"
    bug = next(m for m in get_drill("gae").mistakes if m.id == "gae-no-bootstrap")
    bad = client.check(bug.source("numpy"), drill="gae")
    assert not bad.passed and "gae-no-bootstrap" in bad.mistake_ids and bad.counterexample is not None


def test_a_superseded_check_is_cancelled_and_its_process_killed(client):
    import threading
    import time

    spin = ("import numpy as np\n\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):\n"
            "    while True:\n        pass\n")
    outcome = {}
    assert client.check(get_drill("gae").solution("numpy")).passed  # warm: the spin below really runs at 1 s

    def slow():
        t = time.monotonic()
        try:
            client.check(spin)
        except CheckCancelled as exc:
            outcome["cancelled"] = exc
        outcome["seconds"] = time.monotonic() - t

    thread = threading.Thread(target=slow)
    thread.start()
    time.sleep(1.0)  # the spinning answer is running in the sandbox by now
    client.cancel_running()
    thread.join(timeout=30)
    assert "cancelled" in outcome and outcome["seconds"] < 5  # not the 10 s wall limit
    assert client.check(get_drill("gae").solution("numpy")).passed  # the worker serves on


def test_usage_errors_come_back_as_usage_errors(client):
    with pytest.raises(UsageError, match="no drill function"):
        client.check("def nothing():\n    pass\n")


def test_a_worker_dying_mid_check_is_reported_and_replaced():
    import threading

    c = CheckerClient()
    try:
        assert c.wait_ready(60)
        pid = c._proc.pid
        threading.Timer(1.0, os.kill, (pid, signal.SIGKILL)).start()
        spin = ("import numpy as np\n\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):\n"
                "    while True:\n        pass\n")
        with pytest.raises(CheckerUnavailable, match="stopped"):
            c.check(spin, timeout=60)
        report = c.check(get_drill("value-loss").solution("numpy"), timeout=120)  # a fresh worker
        assert report.passed and c._proc.pid != pid
    finally:
        c.close()


def test_the_worker_reads_requests_line_by_line_and_idles_between_them(monkeypatch):
    """The worker's request loop: whole lines as they come (split across writes or several in one), and
    its idle call (which refreshes the spare sandbox child) whenever no line came for a while."""
    import threading
    import time

    import checker.service as service

    monkeypatch.setattr(service, "SPARE_REFRESH_S", 0.05)
    r, w = os.pipe()
    idles = []
    with os.fdopen(r, "r") as inp:
        def feed():
            os.write(w, b'{"a": 1}\n{"b"')
            time.sleep(0.3)
            os.write(w, b': 2}\n')
            os.close(w)

        thread = threading.Thread(target=feed)
        thread.start()
        lines = list(service._Inbox(inp, idle=lambda: idles.append(1)))
        thread.join()
    assert lines == ['{"a": 1}\n', '{"b": 2}\n'] and len(idles) >= 2


def test_the_worker_sees_the_lines_already_sent_without_taking_them():
    r, w = os.pipe()
    os.write(w, b'{"a": 1}\n{"b": 2}\n{"c"')
    with os.fdopen(r, "r") as inp:
        inbox = service_inbox(inp)
        lines = iter(inbox)
        assert next(lines) == '{"a": 1}\n'
        assert inbox.waiting() == ['{"b": 2}']  # the incomplete line is not seen yet
        os.write(w, b': 3}\n')
        assert inbox.waiting() == ['{"b": 2}', '{"c": 3}']
        os.close(w)
        assert list(lines) == ['{"b": 2}\n', '{"c": 3}\n'] and inbox.waiting() == []


def test_the_warm_up_runs_between_requests_and_stops_when_the_input_closes():
    """The worker warms one drill at a time while no request waits: a request already sent is taken before
    the next step, and once the input has closed no further step runs (the worker exits)."""
    import checker.service as service

    r, w = os.pipe()
    steps = []

    def warm_up():
        for n in range(100):
            steps.append(n)
            if n == 2:
                os.write(w, b'{"a": 1}\n')  # a request arrives during the third step
            yield n

    with os.fdopen(r, "r") as inp:
        inbox = service._Inbox(inp, idle=lambda: None, background=warm_up())
        lines = iter(inbox)
        assert next(lines) == '{"a": 1}\n' and steps == [0, 1, 2]  # served before the fourth step
        os.close(w)
        assert list(lines) == [] and steps == [0, 1, 2]  # closed: the warm-up is left where it was


def service_inbox(inp):
    import checker.service as service

    return service._Inbox(inp, idle=lambda: None)


def test_checks_superseded_while_the_worker_warms_up_are_answered_without_running():
    """Checks sent before the worker is ready (or while it runs another), then abandoned, are answered
    `cancelled` without running: a check still queued is not stopped by the signal, and its endless loop
    would otherwise hold up the next check for its whole wall-clock limit (and come back as a report)."""
    import threading
    import time

    spin = ("import numpy as np\n\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):\n"
            "    while True:\n        pass\n")
    c = CheckerClient()  # warming up: the checks below queue
    outcomes = []
    try:
        def abandoned():
            try:
                outcomes.append(c.check(spin))
            except CheckCancelled as exc:
                outcomes.append(exc)

        threads = [threading.Thread(target=abandoned) for _ in range(2)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while len(c._pending) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        c.cancel_running()
        assert c.check(get_drill("gae").solution("numpy")).passed
        for thread in threads:
            thread.join(timeout=30)
        assert len(outcomes) == 2 and all(isinstance(o, CheckCancelled) for o in outcomes), outcomes
    finally:
        c.close()


def test_an_idle_worker_replaces_its_spare_once_it_is_old(monkeypatch):
    import checker.service as service
    from checker import sandbox

    calls = []

    class Checker:  # what the worker's refresh asks of its checker
        def keep_warm(self):
            calls.append("forked")

    monkeypatch.setattr(sandbox, "spare_age", lambda: service.SPARE_REFRESH_S + 1)
    service._refresh_spare(Checker())
    monkeypatch.setattr(sandbox, "spare_age", lambda: 1.0)
    service._refresh_spare(Checker())
    monkeypatch.setattr(sandbox, "spare_age", lambda: None)  # no spare: nothing was checked yet
    service._refresh_spare(Checker())
    assert calls == ["forked"]


def test_a_warm_request_is_answered_once_every_drill_is_warm(client):
    """`wait_warm` returns once the worker's warm-up is done; checks go on as before."""
    client.wait_warm(timeout=120)
    assert client.check(get_drill("gae").solution("numpy"), drill="gae").passed


def test_a_prepare_request_gets_no_reply_and_the_worker_serves_on(client):
    client.prepare("gae", "numpy")
    client.prepare("no-such-drill", "numpy")  # logged by the worker, nothing else
    assert client.check(get_drill("gae").solution("numpy"), drill="gae").passed

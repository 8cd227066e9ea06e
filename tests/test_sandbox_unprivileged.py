"""The sandbox when the app runs as an ordinary user: no uid to drop to, so the child relies on a user +
pid + network namespace (where the kernel allows them) and says so in `notes` when it cannot.

Simulated from a root test run by forking this process and dropping the fork to an unused ordinary
uid; that fork is the trusted parent, serves the module's tests one script at a time (`OrdinaryUser`)
and reports back as JSON over a pipe."""
from __future__ import annotations

import ctypes
import json
import os
import re
import select
import signal
import socket
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from checker.sandbox import Call, Limits, prepare_parent, run_candidate
from checker.sandbox.sweep import processes_of_uid
from checker.sandbox.zygote import zygote

HOSTILE = Path(__file__).parent / "hostile"
# Read here, as root: the ordinary uid may not be able to reach the checkout (a clone in a 0700 folder)
SOURCES = {p.stem: p.read_text() for p in HOSTILE.glob("*.py")}
pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="simulating an ordinary user needs root to drop to one; as an "
                       "ordinary user the other sandbox tests run this path"),
    # one worker runs these tests, so the process dropped to the uid (the `user` fixture) is made once
    pytest.mark.xdist_group("ordinary-user"),
]
PR_SET_DUMPABLE = 4
USER_UID = 1_400_000_000 + os.getpid() % 1_000_000  # an unused, unprivileged uid for this test run
GOOD = "import numpy as np\ndef answer(x):\n    print('hi')\n    return np.asarray(x) * 2\n"


def live_processes_of(uid: int, exclude: tuple) -> list[int]:
    """Processes of `uid` still running user code (exiting ones have released their memory map)."""
    alive = []
    for pid in processes_of_uid(uid):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        if pid not in exclude and "VmSize" in status:
            alive.append(pid)
    return alive


class OrdinaryUser:
    """A fork of this process dropped to USER_UID, with its own zygote running as USER_UID, that runs this
    module's scripts one request at a time and reports each as JSON over a pipe: one process and one
    zygote for the whole module, as a user's checker serves one check after another.

    Forked while root, after what the scripts need is loaded (the uid may not be able to read the
    checkout: a clone in a 0700 folder). A script is a module-level function named in the request, with
    JSON arguments; `dumpable=False` makes the process non-dumpable for that script (as setuid left it):
    then it may not inspect its own children's namespaces, the hardest case for finding what an answer
    started. After each script the spare is discarded, what the last run killed has gone, and `left`
    lists the uid's processes still running other than this one and its zygote."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.requests = self.replies = -1

    def start(self) -> None:
        prepare_parent()
        _load_verdict_checks()  # the one script that checks through the warm checker finds it warm
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the fork
            try:
                os.close(req_w)
                os.close(rep_r)
                zygote().start(user=USER_UID)
                import checker.sandbox.calls  # noqa: F401 - what a first run loads, while the checkout is readable
                os.setgroups([])
                os.setresgid(USER_UID, USER_UID, USER_UID)
                os.setresuid(USER_UID, USER_UID, USER_UID)
                _serve(req_r, rep_w)
            finally:
                os._exit(0)
        os.close(req_r)
        os.close(rep_w)
        self.pid, self.requests, self.replies = pid, req_w, rep_r

    def run(self, script: str, *args, dumpable: bool = True) -> dict:
        """`script(*args)` as the ordinary user; its JSON dict, `left` added."""
        if self.pid is None:
            self.start()
        os.write(self.requests, json.dumps({"script": script, "args": args, "dumpable": dumpable}).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n") and select.select([self.replies], [], [], 180)[0]:  # a busy machine
            chunk = os.read(self.replies, 1 << 16)
            if not chunk:
                break
            data += chunk
        out = json.loads(data) if data.endswith(b"\n") else {"crash": "no report"}
        if "crash" in out:
            self.stop()  # the next script gets a fresh one
        else:
            for leftover in processes_of_uid(USER_UID):  # never leave a script's processes behind
                if leftover not in out["serving"]:
                    os.kill(leftover, signal.SIGKILL)
        assert "crash" not in out, out["crash"]
        return out

    def stop(self) -> None:
        if self.pid is not None:
            os.close(self.requests)
            os.close(self.replies)
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = None
        for leftover in processes_of_uid(USER_UID):
            os.kill(leftover, signal.SIGKILL)


def _serve(requests: int, replies: int) -> None:  # pragma: no cover - runs in the ordinary user's fork
    from checker.sandbox import discard_spare, settle

    for line in os.fdopen(requests, "rb"):
        request = json.loads(line)
        try:
            ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, int(request["dumpable"]), 0, 0, 0)
            out = SCRIPTS[request["script"]](*request["args"])
            discard_spare()
            settle()  # what the last run killed, gone
            serving = (os.getpid(), zygote().pid)
            out["left"] = live_processes_of(USER_UID, serving)
            out["serving"] = serving
        except BaseException as exc:  # noqa: BLE001
            out = {"crash": repr(exc)}
        os.write(replies, json.dumps(out).encode() + b"\n")


@pytest.fixture(scope="module")
def user():
    server = OrdinaryUser()
    yield server
    server.stop()


def _hostile(name, *args):
    wall_s = 0.3 if name == "fork_bomb" else 5.0  # only the fork bomb is meant to time out
    r = run_candidate(SOURCES[name], "answer", [Call(args or (np.arange(3.0),))],
                      filename=f"{name}.py", limits=Limits(wall_s=wall_s, memory_mb=512))
    return {"kind": r.error.kind if r.error else None, "notes": r.notes,
            "value": r.results[0].value if r.results and isinstance(r.results[0].value, (int, str, list, dict))
            else None}


# ------------------------------------------------------------------ scripts, run as the ordinary user

def _correct_answer() -> dict:
    r = run_candidate(GOOD, "answer", [Call((np.arange(3.0),))], limits=Limits(wall_s=5))
    return {"ok": r.ok, "value": r.results[0].value.tolist(), "stdout": r.stdout, "notes": r.notes}


def _spare_children() -> dict:
    from checker.sandbox import discard_spare, fork_spare

    calls = [Call((np.arange(3.0) + i,)) for i in range(6)]
    out = {}
    for parts in (1, 2):
        fork_spare("answer", calls, limits=Limits(wall_s=5), parts=parts)
        time.sleep(0.2)
        r = run_candidate(GOOD, "answer", calls, limits=Limits(wall_s=5))
        out[f"run{parts}"] = [r.ok, r.timings.get("spare"), len(r.results), r.stdout, r.notes]
        fork_spare("answer", calls, limits=Limits(wall_s=5), parts=parts)
        time.sleep(0.2)
        discard_spare()
    return out


LARGE_OPS = ("import numpy as np, torch\n"
             "def answer():\n"
             "    a = np.random.default_rng(0).random((600, 600))\n"
             "    t = torch.randn(600, 600, requires_grad=True)\n"
             "    (t @ t).sum().backward()\n"
             "    return float(np.linalg.inv(a @ a.T + 600 * np.eye(600)).trace())\n")


def _large_ops() -> dict:
    r = run_candidate(LARGE_OPS, "answer", [Call(())], limits=Limits(wall_s=10))
    return {"kind": r.error.kind if r.error else None, "notes": r.notes}


def _write_files(targets: list[str]) -> dict:
    return {"write": _hostile("write_files", targets)}


def _contained() -> dict:
    return {name: _hostile(name, *args) for name, args in [
        ("open_socket", (9,)), ("setsid_grandchild", ()), ("nondumpable_grandchild", ()),
        ("fork_bomb", ()), ("kill_parent", ()), ("fork_loop", ()),
        ("memory_bytearray", ()), ("print_flood", ()), ("segfault", ())]}


def _zombie_children() -> int:
    """Zombie children of this process and of its zygote."""
    parents = {os.getpid(), zygote().pid}
    count = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            count += fields[0] == "Z" and int(fields[1]) in parents
    return count


def _escapes(paths: list[str]) -> dict:
    out = {name: _hostile(name, *args) for name, args in [
        ("signal_owner_sigkill", ()), ("clone_namespaces", ()),
        ("close_descriptor_then_open", (paths,)), ("more_threads", ())]}
    out["zombies"] = []
    for _ in range(4):
        out["clone_parent"] = _hostile("clone_parent_zombies")
        out["zombies"].append(_zombie_children())
    time.sleep(0.2)  # the zygote reaps each child as it ends
    out["zombies_after"] = _zombie_children()
    return out


VERDICTS = [(path.stem, path.read_text()) for path in sorted((HOSTILE / "verdicts").glob("*.py"))]
VERDICT_HEADS = {name: dict(re.findall(r"^# (drill|framework|expect): (\S+)", text, re.M)) for name, text in VERDICTS}


def _load_verdict_checks() -> None:
    """As root, before the drop: what checking the verdict answers loads (the uid may not read the checkout)."""
    from tests.warm_checker import CHECKER as checker

    for head in VERDICT_HEADS.values():
        checker.plan(head["drill"], head["framework"]).warm()
        checker.catalogue(head["drill"], head["framework"]).variants()
    checker.check(dict(VERDICTS)["gae_numpy_prints_a_fake_pass"], "gae", "numpy")  # and the modules a check imports


def _verdicts() -> dict:
    from tests.warm_checker import CHECKER as checker  # as warm as this worker's checks made it

    out = {}
    for name, text in VERDICTS:
        head = VERDICT_HEADS[name]
        report = checker.check(text, head["drill"], head["framework"], shrink_failure=False)  # the verdict
        out[name] = {"expect": head["expect"], "passed": report.passed,
                     "mistakes": report.mistake_ids, "stdout": report.stdout, "notes": report.notes}
    return out


def _state(pid: int):
    return (Path(f"/proc/{pid}/limits").read_text(),
            Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def _other_processes() -> dict:
    shell = subprocess.Popen(["sleep", "30"])
    try:
        before = [_state(shell.pid), _state(os.getpid())]
        out = _hostile("reaches_other_processes", [shell.pid, os.getpid(), os.getppid()])
        after = [_state(shell.pid), _state(os.getpid())]
        good = run_candidate(GOOD, "answer", [Call((np.arange(3.0),))], limits=Limits(wall_s=5))
    finally:
        shell.kill()
        shell.wait()
    return {"out": out, "same": before == after, "next_ok": good.ok}


SCRIPTS = {fn.__name__: fn for fn in (_correct_answer, _spare_children, _large_ops, _write_files, _contained,
                                      _escapes, _verdicts, _other_processes)}


# ---------------------------------------------------------------------------------------------- tests

def test_a_correct_answer_runs_and_any_degradation_is_said(user):
    out = user.run("_correct_answer")
    assert out["ok"] and out["value"] == [0.0, 2.0, 4.0] and out["stdout"] == "hi\n"
    userns = int(Path("/proc/sys/user/max_user_namespaces").read_text()) > 0
    if userns:
        assert out["notes"] == []
    else:
        assert out["notes"] and out["notes"][0].startswith("network isolation unavailable")
    assert out["left"] == []


def test_spare_children_run_and_are_cleared_up_without_root(user):
    """Children forked ahead of time (one, and two for slices of the calls) run as a fresh child does,
    and a discarded spare, its pid-namespace keeper included, leaves nothing behind."""
    out = user.run("_spare_children")
    for parts in (1, 2):
        ok, spare, n, stdout, notes = out[f"run{parts}"]
        assert ok and spare == 1.0 and n == 6 and stdout == "hi\n" * 6
    assert out["left"] == []


def test_large_numpy_and_torch_work_where_threads_cannot_start(user):
    """The pid namespace forbids new threads; BLAS is set to one thread so it never needs any."""
    out = user.run("_large_ops")
    assert out["kind"] is None, out


def test_the_users_own_files_cannot_be_changed_or_deleted(user, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    victim = home / "progress.db"
    victim.write_text("a user's progress")
    for path in (tmp_path, home, victim):
        os.chown(path, USER_UID, USER_UID)
    out = user.run("_write_files", [str(home / "new.txt"), str(victim)])
    if out["write"]["notes"]:
        pytest.skip("user namespaces unavailable here: " + out["write"]["notes"][0])
    assert out["write"]["kind"] is None
    outcomes = out["write"]["value"]
    assert len(outcomes) == 3 and "written" not in outcomes and "unlinked" not in outcomes, outcomes
    assert victim.read_text() == "a user's progress" and not (home / "new.txt").exists()


@pytest.mark.parametrize("dumpable", [True, False], ids=["dumpable-parent", "non-dumpable-parent"])
def test_hostile_answers_are_contained_without_root(user, dumpable):
    out = user.run("_contained", dumpable=dumpable)
    if out["open_socket"]["notes"]:
        pytest.skip("user namespaces unavailable here: " + out["open_socket"]["notes"][0])
    assert out["open_socket"]["kind"] is None and out["open_socket"]["value"] != "connected"
    assert out["setsid_grandchild"]["kind"] is out["nondumpable_grandchild"]["kind"] is None
    assert out["fork_bomb"]["kind"] == "timeout"
    assert out["kill_parent"]["kind"] == out["fork_loop"]["kind"] == "exception"  # and we are still here
    assert out["memory_bytearray"]["kind"] == "memory"
    assert out["print_flood"]["kind"] == "output"
    assert out["segfault"]["kind"] == "crash"
    assert out["left"] == []  # the setsid grandchild and the fork bomb were swept


def test_the_escapes_past_the_descriptor_limit_and_the_filter_are_closed(user, tmp_path):
    """What an ordinary user's answer could reach before: the kernel signalling the checker for it
    (F_SETOWN + F_SETSIG(SIGKILL) + O_ASYNC), a 0600 file and a 0600 unix socket of the same user
    after os.close(0), new namespaces through a raw clone(), and zombies made with CLONE_PARENT."""
    tmp_path.chmod(0o755)
    secret = tmp_path / "id_ed25519"
    secret.write_text("a private key")
    secret.chmod(0o600)
    sock_path = tmp_path / "agent.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(sock_path))
    server.listen(1)
    server.setblocking(False)
    for path in (tmp_path, secret, sock_path):
        os.chown(path, USER_UID, USER_UID)
    sock_path.chmod(0o600)
    try:
        out = user.run("_escapes", [str(secret), str(tmp_path), str(sock_path)])  # a SIGKILLed checker would send no report at all
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()
    if out["clone_namespaces"]["notes"]:
        pytest.skip("user namespaces unavailable here: " + out["clone_namespaces"]["notes"][0])
    owner = out["signal_owner_sigkill"]
    assert owner["kind"] is None and owner["value"]["F_SETOWN"] == owner["value"]["F_SETSIG"] == "PermissionError"
    assert owner["value"]["F_SETOWN_EX"] == owner["value"]["FIOSETOWN"] == "PermissionError"
    assert out["close_descriptor_then_open"]["value"] == {
        "read": "OSError", "listdir": "OSError", "import": "OSError", "unix": "PermissionError",
        "exec": "PermissionError"}
    assert out["clone_namespaces"]["value"] == [["refused", 1], ["refused", 1], ["refused", 1], ["refused", 38]]
    assert out["more_threads"]["kind"] is None
    # the answer is the first process of its own pid namespace, for which the kernel refuses CLONE_PARENT
    assert out["clone_parent"]["kind"] is None and out["clone_parent"]["value"] == 0
    assert max(out["zombies"]) <= 2 and out["zombies_after"] == 0, out["zombies"]
    assert out["left"] == []


def test_hostile_results_and_printed_escapes_fail_honestly_without_root(user):
    """tests/hostile/verdicts/ as an ordinary user: complex, bool, object and string results fail as
    output-type, and printed escape sequences come back visible (see tests/test_hostile_verdicts.py)."""
    out = {k: v for k, v in user.run("_verdicts").items() if k not in ("left", "serving")}
    assert len(out) == len(VERDICTS)
    for name, r in out.items():
        assert r["passed"] is False, name
        if r["expect"] == "output-type":
            assert r["mistakes"] == ["output-type"], (name, r)
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", r["stdout"]), (name, r["stdout"])
    assert "\\x1b]0;ppo-drill: PASS\\x07" in out["gae_numpy_prints_a_fake_pass"]["stdout"]


def test_the_users_other_processes_are_out_of_reach(user):
    """As an ordinary user the answer shares the user's uid, so without its own pid namespace and the
    filter it could set RLIMIT_CPU=1 on every process of the user, renice them all for good, or poison
    the checker (the worker's own limits). None of that reaches a shell of the user, or the checker."""
    out = user.run("_other_processes")
    if out["out"]["notes"]:
        pytest.skip("user namespaces unavailable here: " + out["out"]["notes"][0])
    got = out["out"]["value"]
    assert out["out"]["kind"] is None and out["same"] and out["next_ok"], out
    assert "prlimit" not in got and "affinity" not in got and "scheduler" not in got, got
    assert got["renice_user"] == got["renice_group"] == "PermissionError", got
    assert got["own_prlimit"] == got["own_renice"] == "done", got

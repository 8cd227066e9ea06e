"""The hostile corpus (tests/hostile/*.py): every answer there is contained with the right error kind,
leaves no process running and no zombie behind, and the next check of a correct answer still works.
Extra tests look closer at the cases whose damage would be outside the child (files, network,
signals to the parent, the parent's numpy/torch, unpickling)."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from checker.sandbox import Call, Limits, Opaque, run_candidate, settle
from checker.sandbox.isolation import SANDBOX_UID_BASE
from checker.sandbox.sweep import sigkill_pending, sweep_orphans
from checker.sandbox.zygote import zygote

HOSTILE = Path(__file__).parent / "hostile"
CORPUS = sorted(HOSTILE.glob("*.py"))
FAST = Limits(wall_s=0.3, cpu_s=5, memory_mb=512)  # for answers that are meant to time out
ROOMY = Limits(wall_s=5, cpu_s=5, memory_mb=512)  # the rest finish fast; room for a busy machine
ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="uid drop, NPROC and signal protection need root")

GOOD = "import numpy as np\ndef answer(x):\n    return np.asarray(x) * 2\n"


def expected_kind(path: Path) -> str:
    match = re.match(r"# expect: ([a-z-]+)", path.read_text())
    assert match, f"{path.name} must start with '# expect: <kind>'"
    return match.group(1)


def keepers() -> set[int]:
    """The children this test process's zygote forked (the runs' keepers): other sessions on the machine
    may be running sandboxes of their own at the same time, and their processes are none of this test's
    business."""
    return set(zygote().children)


def running_uid(pid: int | str) -> int | None:
    """The real uid of a process that can still run code, else None. A zombie, a process without
    a memory map (exiting) or one with SIGKILL pending never runs code again."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    state = re.search(r"^State:\s+(\S)", status, re.M).group(1)
    if state in "ZX" or "VmSize" not in status or sigkill_pending(status.encode()):
        return None
    return int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))


def sandbox_processes() -> list[int]:
    """Processes still running code under the uid of a sandbox this test process started."""
    found = []
    ours = keepers()
    for name in os.listdir("/proc"):
        uid = running_uid(name) if name.isdigit() else None
        if uid is not None and uid - SANDBOX_UID_BASE in ours:
            found.append(int(name))
    return found


def zombies_of(parent: int) -> list[int]:
    zombies = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z" and int(fields[1]) == parent:
            zombies.append(int(name))
    return zombies


def unreaped_children(wait_s: float = 2.0) -> list[int]:
    """Zombie children of this process or of its zygote, once the zygote has had `wait_s` to reap its
    own (it reaps each child as it ends; none may accumulate)."""
    deadline = time.monotonic() + wait_s
    while True:
        left = zombies_of(os.getpid()) + zombies_of(zygote().pid)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.01)


def assert_clean_and_next_check_works() -> None:
    settle()  # each run killed its processes before it returned; their teardown is awaited here
    assert unreaped_children() == []
    if ROOT:
        left = sandbox_processes()
        assert left == [], [Path(f"/proc/{p}/status").read_text()[:400] for p in left]
    good = run_candidate(GOOD, "answer", [Call((np.arange(3.0),))], limits=Limits(wall_s=10))
    assert good.ok, good.error
    np.testing.assert_array_equal(good.results[0].value, [0.0, 2.0, 4.0])


def run_hostile(name: str, *args, limits: Limits = ROOMY):
    source = (HOSTILE / name).read_text()
    return run_candidate(source, "answer", [Call(args or (np.arange(4.0),))],
                         filename=name, limits=limits)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_is_contained_with_the_right_kind(path, tmp_path):
    args = {
        "close_descriptor_then_open": ([__file__, str(tmp_path), str(tmp_path / "no.sock")],),
        "write_files": ([str(tmp_path / "w.txt")],),
        "open_socket": (9,),
        "pickle_payload": (str(tmp_path / "marker"),),
        "forged_frame": (str(tmp_path / "marker"),),
    }.get(path.stem, ())
    limits = {"cpu_burn_ignoring_sigxcpu": Limits(wall_s=5, cpu_s=1, memory_mb=512),
              "deep_c_recursion": Limits(wall_s=30, memory_mb=512),  # the stack limit decides; the wall only bounds a hang
              "memory_torch_growth": Limits(wall_s=5, memory_mb=256)}.get(
                  path.stem, FAST if expected_kind(path) == "timeout" else ROOMY)
    handlers = signal.getsignal(signal.SIGCHLD), signal.getsignal(signal.SIGINT)
    result = run_hostile(path.name, *args, limits=limits)
    assert (signal.getsignal(signal.SIGCHLD), signal.getsignal(signal.SIGINT)) == handlers
    if result.notes and not ROOT:
        pytest.skip(f"this machine only allows a degraded sandbox: {result.notes[0]}")
    kind = expected_kind(path)
    if kind == "ok":
        assert result.ok, result.error
    else:
        assert not result.ok and result.error.kind == kind, (result.error, result.stdout[-500:])
        assert result.error.message
    assert_clean_and_next_check_works()


def test_error_reports_name_the_candidates_line_and_call():
    result = run_hostile("raises_at_line.py")
    assert result.error.kind == "exception"
    assert result.error.exc_type == "ValueError"
    assert result.error.line == 6 and result.error.call_index == 0
    assert "raises_at_line.py" in result.error.detail and "helper" in result.error.detail
    assert "line 6" in result.error.message


def test_syntax_and_missing_function_are_explained():
    syn = run_hostile("syntax_error.py")
    assert syn.error.line == 3 and syn.signature is None
    missing = run_hostile("missing_function.py")
    assert "`answer`" in missing.error.message and "anwser" in missing.error.message


def test_sys_exit_at_import_is_reported_as_such():
    result = run_hostile("exit_at_import.py")
    assert result.error.kind == "crash" and result.error.exc_type == "SystemExit"
    assert "sys.exit(3)" in result.error.message and result.error.line == 4


def test_segfault_names_the_signal():
    result = run_hostile("segfault.py")
    assert "SIGSEGV" in result.error.message


def test_a_c_stack_overflow_is_decided_by_the_stack_limit_whatever_the_users_ulimit():
    """The child caps its stack at 8 MiB, so recursion in C past a lifted recursion limit crashes
    at the same depth, a fraction of a second in, even when the checker runs with an unlimited
    stack (`ulimit -s unlimited`); its CPU time is far below the limit, so neither the clock nor
    the CPU limit decides the verdict."""
    import resource

    from checker.sandbox.isolation import STACK_BYTES

    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    widest = resource.RLIM_INFINITY if ROOT else hard
    probe = "import resource\ndef answer(x):\n    return list(resource.getrlimit(resource.RLIMIT_STACK))\n"
    try:
        resource.setrlimit(resource.RLIMIT_STACK, (widest, widest))
        seen = run_candidate(probe, "answer", [Call((1,))], limits=ROOMY)
        result = run_hostile("deep_c_recursion.py", limits=Limits(wall_s=60, cpu_s=10, memory_mb=512))
    finally:
        resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))
    expected = STACK_BYTES if widest == resource.RLIM_INFINITY else min(STACK_BYTES, widest)
    assert seen.ok and seen.results[0].value == [expected] * 2, seen
    assert result.error.kind == "crash" and "SIGSEGV" in result.error.message, result.error
    assert result.error.call_index == 0


def test_wrong_signature_is_reported_with_the_signature():
    result = run_hostile("wrong_signature.py")
    assert result.error.kind == "exception" and result.error.exc_type == "TypeError"
    assert [p["name"] for p in result.signature] == ["rewards", "values", "dones", "gamma", "lam"]
    assert result.signature[3] == {"name": "gamma", "kind": "POSITIONAL_OR_KEYWORD", "default": 0.99,
                                   "has_default": True}
    assert result.signature[4]["kind"] == "KEYWORD_ONLY"


def test_print_flood_keeps_only_the_first_output():
    result = run_hostile("print_flood.py")
    assert result.stdout_truncated and len(result.stdout) == ROOMY.output_bytes
    assert result.stdout.startswith("x" * 1000 + "\n")


def test_returns_none_and_weird_objects_come_back_described():
    assert run_hostile("returns_none.py").results[0].value is None
    weird = run_hostile("returns_weird_object.py").results[0].value
    assert weird == Opaque("Loss", "Loss(0.5)")


def test_monkeypatching_in_the_child_leaves_the_parents_numpy_and_torch_alone():
    originals = (np.allclose, np.isclose, np.testing.assert_allclose, torch.allclose, torch.clamp,
                 torch.Tensor.__eq__, np.clip)
    result = run_hostile("monkeypatch_libraries.py")
    assert result.results[0].value is True  # the child's own np.allclose was replaced
    assert originals == (np.allclose, np.isclose, np.testing.assert_allclose, torch.allclose,
                         torch.clamp, torch.Tensor.__eq__, np.clip)
    assert not np.allclose(np.zeros(2), np.ones(2))
    assert torch.clamp(torch.tensor([5.0]), max=1.0).item() == 1.0


def test_inputs_are_copies_for_each_call_and_the_parent():
    x = np.array([3.0, 4.0])
    t = torch.tensor([3.0, 4.0])
    source = (HOSTILE / "mutates_inputs.py").read_text()
    calls = [Call((x,)), Call((x,)), Call((t,)), Call((t,)), Call((x[1:],)), Call((x[1:],)),
             Call((t[1:],)), Call((t[1:],))]
    result = run_candidate(source, "answer", calls, limits=ROOMY)
    assert [r.value for r in result.results] == [3.0, 3.0, 3.0, 3.0, 4.0, 4.0, 4.0, 4.0]
    assert x.tolist() == [3.0, 4.0] and t.tolist() == [3.0, 4.0]


def test_pickle_payloads_are_never_unpickled(tmp_path):
    marker = tmp_path / "marker"
    returned = run_hostile("pickle_payload.py", str(marker))
    payload, mapping = returned.results[0].value
    assert isinstance(payload, Opaque) and payload.type_name == "Payload"
    assert isinstance(mapping["loss"], Opaque)
    forged = run_hostile("forged_frame.py", str(marker))
    assert forged.error.kind == "crash" and "could not read" in forged.error.message
    assert not marker.exists()


def test_the_sandbox_package_cannot_unpickle():
    """A static guarantee on top of the behavioural one: no deserialiser that can run code."""
    package = Path(__file__).parents[1] / "checker" / "sandbox"
    banned = re.compile(r"import (c?pickle|marshal|shelve|dill)|from (c?pickle|marshal|shelve|dill) "
                        r"|\b(pickle|marshal|shelve)\.|\beval\(|allow_pickle=True")
    for path in package.glob("*.py"):
        assert not banned.search(path.read_text()), f"{path.name}: {banned.search(path.read_text())}"


def running_named(name: str) -> list[int]:
    """Processes named `name` (their comm) that can still run code."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if comm == name and running_uid(pid) is not None:
            found.append(int(pid))
    return found


@pytest.mark.parametrize("name", ["setsid_grandchild", "nondumpable_grandchild"])
def test_a_setsid_grandchild_does_not_outlive_the_check(name):
    marker = f"esc{os.getpid() % 100000}"
    result = run_hostile(f"{name}.py", marker)
    assert result.ok and isinstance(result.results[0].value, int), result.error
    settle()
    assert running_named(marker) == []


def test_killing_the_parent_is_refused():
    result = run_hostile("kill_parent.py")
    if result.notes and not ROOT:
        pytest.skip(f"this machine only allows a degraded sandbox: {result.notes[0]}")
    assert result.error.exc_type == "PermissionError"
    os.kill(os.getpid(), 0)  # still here


def _limits_and_nice(pid: int) -> tuple[str, int]:
    limits = Path(f"/proc/{pid}/limits").read_text()
    return limits, int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_other_processes_are_out_of_reach():
    """Limits, priority, scheduler and affinity of another process (the checker, a busy shell of the same
    user) cannot be set: the answer's pid namespace holds no other process, and the filter refuses these
    calls unless they name the caller. Its own process it may still tune."""
    victim = subprocess.Popen(["sleep", "30"])
    try:
        before = {pid: _limits_and_nice(pid) for pid in (os.getpid(), victim.pid)}
        result = run_hostile("reaches_other_processes.py", [os.getpid(), victim.pid, os.getppid()])
        assert result.ok, result.error
        out = result.results[0].value
        after = {pid: _limits_and_nice(pid) for pid in (os.getpid(), victim.pid)}
    finally:
        victim.kill()
        victim.wait()
    assert after == before
    assert "prlimit" not in out and "affinity" not in out and "scheduler" not in out, out
    assert {out["renice_user"], out["renice_group"]} == {"PermissionError"}, out
    assert out["ioprio_user"] == out["ioprio_group"] == out["no_death_signal"] == "Operation not permitted", out
    assert set(out["ioprio_pid"] + out["kcmp"] + out["pidfd_open"]) <= {"Operation not permitted", "No such process"}
    assert out["own_prlimit"] == out["own_renice"] == out["own_affinity"] == "done", out
    assert_clean_and_next_check_works()


def skip_if_degraded(result) -> None:
    """As an ordinary user the protections below come from user namespaces; where the kernel refuses
    them the sandbox says so in notes, and these guarantees do not hold (docs/isolation.md)."""
    if result.notes and not ROOT:
        pytest.skip(f"this machine only allows a degraded sandbox: {result.notes[0]}")


def test_fork_loop_stops_at_the_process_limit():
    result = run_hostile("fork_loop.py")
    skip_if_degraded(result)
    assert result.error.exc_type == "BlockingIOError"


def test_writes_to_home_cwd_and_project_are_refused(tmp_path):
    tmp_path.chmod(0o755)
    targets = [str(Path.home() / "ppo-drill-sandbox-canary"), os.path.join(os.getcwd(), "canary.txt"),
               str(tmp_path / "canary.txt"), "canary-in-sandbox-cwd.txt"]
    victim = tmp_path / "progress.db"
    victim.write_text("a user's progress")
    result = run_hostile("write_files.py", targets + [str(victim)])
    skip_if_degraded(result)
    outcomes = result.results[0].value
    assert "written" not in outcomes and "unlinked" not in outcomes, outcomes
    for target in targets[:3]:
        assert not Path(target).exists()
    assert victim.read_text() == "a user's progress"


def test_no_network_reaches_the_parents_loopback():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.setblocking(False)
    try:
        result = run_hostile("open_socket.py", server.getsockname()[1])
        assert result.ok and result.results[0].value != "connected", result.results[0].value
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (children, theirs, ...) that can still run code."""
    parents: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                ppid = int(Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(name))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return {p for p in found if running_uid(p) is not None}


HELPERS_THEN_LOOP = """import os, time
def answer(x):
    for _ in range(3):
        if os.fork() == 0:
            while True:
                time.sleep(0.05)
    while True:
        pass
"""


@pytest.mark.parametrize("source", [(HOSTILE / "infinite_loop.py").read_text(), HELPERS_THEN_LOOP],
                         ids=["answer-alone", "answer-with-helpers"])
def test_everything_a_run_started_dies_with_a_checker_that_dies_mid_check(source):
    """A checker process killed during a check takes its zygote with it, the zygote its children, each
    keeper its answer's process, and the kernel the whole pid namespace: nothing the answer started runs
    on (processes it forked included), within moments, not after the time limit."""
    checker = os.fork()
    if checker == 0:  # pragma: no cover - a checker process that will be killed mid-check
        try:
            run_candidate(source, "answer", [Call((1,))], limits=Limits(wall_s=60, cpu_s=60))
        finally:
            os._exit(0)
    try:
        deadline = time.monotonic() + 60
        while len(descendants(checker)) < 3 + (3 if "fork" in source else 0):  # zygote, keeper, answer, helpers
            assert os.waitpid(checker, os.WNOHANG) == (0, 0), "the checker ended on its own"
            assert time.monotonic() < deadline, "the check never started"
            time.sleep(0.01)
        time.sleep(0.2)  # the answer is running
        started = descendants(checker)
    finally:
        os.kill(checker, signal.SIGKILL)
        os.waitpid(checker, 0)
    deadline = time.monotonic() + 3
    while started & {p for p in started if running_uid(p) is not None}:
        assert time.monotonic() < deadline, [Path(f"/proc/{p}/status").read_text()[:300] for p in started
                                              if running_uid(p) is not None]
        time.sleep(0.01)


@needs_root
def test_a_new_checker_clears_up_what_a_dead_one_left():
    """A process left under a sandbox uid whose run's child no longer exists is killed; one whose run
    is still going (its child exists under that uid) is left alone."""
    gone = os.fork()
    if gone == 0:  # pragma: no cover
        os._exit(0)
    os.waitpid(gone, 0)  # a run's child that has ended: its uid's processes are orphans

    def sandboxed_sleeper(owner: int | None) -> int:
        pid = os.fork()
        if pid == 0:  # pragma: no cover
            try:
                uid = SANDBOX_UID_BASE + (owner if owner is not None else os.getpid())
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                signal.pause()
            finally:
                os._exit(0)
        return pid

    orphan = sandboxed_sleeper(gone)
    live_child = sandboxed_sleeper(None)  # stands for a live run's child: uid = base + its own pid
    try:
        while (running_uid(orphan) != SANDBOX_UID_BASE + gone
               or running_uid(live_child) != SANDBOX_UID_BASE + live_child):
            os.sched_yield()  # until both have dropped to their uid
        assert sweep_orphans(SANDBOX_UID_BASE) >= 1
        assert os.waitpid(orphan, 0)[1] == signal.SIGKILL
        assert os.waitpid(live_child, os.WNOHANG) == (0, 0)
    finally:
        for pid in (orphan, live_child):
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def test_the_kernel_is_not_asked_to_signal_the_checker():
    """F_SETOWN / F_SETOWN_EX / FIOSETOWN + F_SETSIG(SIGKILL) + O_ASYNC on the inherited output pipe
    would have the kernel SIGKILL the checker when it reads (as an ordinary user nothing else stops
    it: see test_sandbox_unprivileged.py). Setting the owner or the signal is refused."""
    result = run_hostile("signal_owner_sigkill.py")
    assert result.ok, result.error
    outcomes = result.results[0].value
    assert {k: outcomes[k] for k in ("F_SETOWN", "F_SETOWN_EX", "FIOSETOWN", "F_SETSIG")} == dict.fromkeys(
        ("F_SETOWN", "F_SETOWN_EX", "FIOSETOWN", "F_SETSIG"), "PermissionError"), outcomes
    os.kill(os.getpid(), 0)  # still here
    assert_clean_and_next_check_works()


def unix_server(path: Path) -> socket.socket:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    os.chmod(path, 0o777)
    server.listen(1)
    server.setblocking(False)
    return server


def test_closing_a_descriptor_opens_no_file_module_socket_or_program(tmp_path):
    """os.close(0) frees a descriptor below RLIMIT_NOFILE; the filter still refuses every open,
    import of an unloaded module, unix-socket connect and exec."""
    tmp_path.chmod(0o755)
    secret = tmp_path / "solution.py"
    secret.write_text("the model solution")
    secret.chmod(0o644)
    # a unix socket path is at most 107 bytes: pytest's tmp_path under xdist, as an ordinary user, is longer
    sock_dir = Path(tempfile.mkdtemp(prefix="ppo-", dir="/tmp"))
    sock_dir.chmod(0o755)
    server = unix_server(sock_dir / "bus.sock")
    try:
        result = run_hostile("close_descriptor_then_open.py", [str(secret), str(tmp_path), str(sock_dir / "bus.sock")])
        assert result.ok, (result.error, result.stdout)
        outcomes = result.results[0].value
        assert outcomes == {"read": "OSError", "listdir": "OSError", "import": "OSError",
                            "unix": "PermissionError", "exec": "PermissionError"}, outcomes
        assert "model solution" not in result.stdout
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()
        shutil.rmtree(sock_dir, ignore_errors=True)
    assert_clean_and_next_check_works()


def test_clone_cannot_make_namespaces():
    result = run_hostile("clone_namespaces.py")
    assert result.ok, result.error
    assert result.results[0].value == [["refused", 1], ["refused", 1], ["refused", 1], ["refused", 38]]


def test_clone_parent_cannot_make_zombies_of_the_checker():
    """CLONE_PARENT would make the answer's processes children of whoever forked it. The answer is the
    first process of its own pid namespace, for which the kernel refuses it; where no namespace could be
    made, they are the zygote's children, which it reaps. Either way none piles up."""
    for _ in range(5):
        result = run_hostile("clone_parent_zombies.py")
        assert result.ok and result.results[0].value in (0, 4), result.error
        assert result.results[0].value == 0 or result.notes
    assert_clean_and_next_check_works()


def test_a_thread_count_set_by_the_answer_is_kept_or_named():
    """torch.set_num_threads(64) is accepted and ignored, so a right answer passes; reaching past it
    to the C function makes libgomp end the process, and the report says so rather than blaming os._exit."""
    assert run_hostile("more_threads.py").ok
    source = (HOSTILE / "more_threads.py").read_text().replace("torch.set_num_threads", "torch._C.set_num_threads")
    result = run_candidate(source, "answer", [Call((np.arange(4.0),))], limits=ROOMY)
    if result.ok:
        pytest.skip("this machine let libgomp start its threads")
    assert result.error.kind == "crash" and "threads" in result.error.message, result.error
    assert "os._exit" not in result.error.message

"""`run_candidate`: fork, let the child run the answer, read its frames under a wall-clock deadline,
kill everything it started, reap it, and classify the ending.

The parent is the trusted process (the checker worker, or the CLI), prepared by `prepare_parent`
(parent.py): numpy and torch imported before forking, so the child inherits them for free (~7 ms per
fork instead of 1.8 s of import), and no multi-threaded op run first.
"""
from __future__ import annotations

import errno
import math
import os
import select
import sys
import time

from checker.sandbox.child import child_main
from checker.sandbox.classify import Ending, classify
from checker.sandbox.frames import FrameError, FrameReader, ResultTooLarge, decode_value
from checker.sandbox.isolation import SANDBOX_UID_BASE, sandbox_uid
from checker.sandbox.model import Call, CallError, CallResult, Limits, RunResult
from checker.sandbox.parent import prepare_parent
from checker.sandbox.sweep import is_pid_ns_init, kill_tree
from checker.sandbox.text import visible

_READ_CHUNK = 1 << 16
#: What a child forgets by default before the answer runs: the checker's packages (the reference
#: core, the examples' expected results, the catalogue) would otherwise be an oracle in its memory.
CALLER_PACKAGES = ("checker", "drills", "cards", "tui")
_unreaped: set[int] = set()

def run_candidate(source: str, function: str, calls: list[Call], *, filename: str = "answer.py",
                  limits: Limits = Limits(), preload: tuple = (), forget: tuple | None = None) -> RunResult:
    """Run `function` from the module `source` in a confined child, once per `Call`, and report.

    `preload`: trusted modules `(name, source, filename)` created in the child before the answer runs,
    so that it can import them; with `function` written `module:attr`, that preloaded function is
    called with the answer's module as its first argument (how test files are run).

    `forget`: `(wipe, packages)`: in the child, before the answer runs, `wipe()` is called (the
    caller empties what it holds that the answer must not read; None for nothing) and every module
    of `packages` (top-level names) except the sandbox's own is emptied and dropped from
    `sys.modules`, so that nothing of the caller's stays reachable from the answer but what it was
    given. By default the project's own packages (`CALLER_PACKAGES`); `()` forgets nothing.

    Never raises for anything the answer does; every ending is a `RunResult` (see `SandboxError`
    for the kinds). Blocks for at most about `limits.wall_s` plus cleanup.
    """
    prepare_parent()
    reap_finished()
    calls = list(calls)
    if forget is None:
        forget = (None, CALLER_PACKAGES)
    if forget:
        forget = (forget[0], forgotten_modules(forget[1], function, calls))
    t0 = time.perf_counter()
    res_r, res_w = os.pipe2(os.O_CLOEXEC)
    out_r, out_w = os.pipe2(os.O_CLOEXEC)
    parent_pid = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, never returns
        try:
            child_main(source, function, calls, filename, limits, res_w, out_w, parent_pid, preload, forget)
        finally:
            os._exit(99)
    os.close(res_w)
    os.close(out_w)
    run = _Run(calls, limits, t0)
    try:
        run.collect(pid, res_r, out_r, t0)
    finally:
        t_kill = time.perf_counter()
        root = os.geteuid() == 0
        run.end.notes += kill_tree(pid, sandbox_uid(pid) if root else None, run.user_ns, run.init_fd,
                                  run.init_pid)
        if run.init_fd is not None:
            os.close(run.init_fd)
        if run.end.terminal is None and run.end.reason is None:
            # The ending is told by the exit status, and the child has already exited.
            run.end.status, run.end.cpu_s = _reap(pid)
        else:
            _unreaped.add(pid)  # dying of SIGKILL; reaped by the next run or reap_finished()
        os.close(res_r)
        os.close(out_r)
        run.timings["cleanup_ms"] = (time.perf_counter() - t_kill) * 1e3
    elapsed = (time.perf_counter() - t0) * 1e3
    run.timings["total_ms"] = elapsed
    out = bytes(run.stdout)
    run.end.output = out
    error = classify(run.end, limits, filename)
    return RunResult(ok=error is None, error=error, signature=run.signature, results=run.results,
                     stdout=visible(out.decode("utf-8", errors="replace")),
                     stdout_truncated=run.out_total > len(out), elapsed_ms=elapsed,
                     notes=run.end.notes, timings=run.timings)


#: Never forgotten: the sandbox runs in the child until the end.
_KEEP = ("checker.sandbox",)


def forgotten_modules(packages, function: str, calls) -> list[str]:
    """The loaded modules of `packages` (top-level names) that the child forgets before the answer
    runs. Kept: the sandbox, the module `function` names (`module:attr`, a preloaded harness), and the
    modules defining the classes of the calls' arguments (a drill may hand the answer an object of
    its own, such as a small model, whose methods need their module's globals)."""
    keep = set(_KEEP)
    if ":" in function:
        keep.add(function.split(":", 1)[0])
    keep.update(_argument_modules(calls))
    return [name for name in list(sys.modules) if name.split(".", 1)[0] in packages
            and not any(name == k or name.startswith(k + ".") for k in keep)]


def _argument_modules(calls) -> set[str]:
    """The modules defining the classes (and their bases) of the objects the calls hand the answer."""
    found: set[str] = set()
    plain = (int, float, str, bool, bytes, type(None))

    def walk(value, depth: int = 0) -> None:
        if isinstance(value, plain) or depth > 4:
            return
        if isinstance(value, (tuple, list)):
            for v in value:
                walk(v, depth + 1)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v, depth + 1)
        else:
            for cls in type(value).__mro__:
                found.add(cls.__module__)

    for call in calls:
        walk(call.args)
        walk(call.kwargs)
    return found


def reap_finished(block: bool = False) -> int:
    """Reap children of earlier runs that have finished dying; returns how many are still pending.

    Runs do not wait for a killed child's teardown (a few ms for a process that maps torch);
    each run reaps the previous ones, so at most a run's worth of zombies exists at any time.
    `block=True` waits for all of them (tests, shutdown).
    """
    for pid in list(_unreaped):
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _unreaped.discard(pid)
    _reap_strays(block)
    return len(_unreaped)


def _reap_strays(block: bool) -> None:
    """Reap processes an answer made this process's children (clone with CLONE_PARENT): killed with
    the rest of the run, they would otherwise stay zombies of the checker worker for good.

    Only sandbox processes are reaped (as root: a sandbox uid; as an ordinary user: a process in a
    nested pid namespace, which only a sandbox makes), so a caller's own children are left to it.
    Without `block`, zombies are peeked at with WNOWAIT, one syscall when there are none; `block`
    also finds the ones still dying in /proc and waits for them.
    """
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            info = None
        if info is None or not _is_sandbox_process(info.si_pid, info.si_uid):
            break
        try:
            os.waitpid(info.si_pid, 0)  # a zombie: returns at once
        except ChildProcessError:
            pass
    if block:
        me = os.getpid()
        for pid in _children_of(me):
            if _is_sandbox_process(pid, _uid_of(pid)):
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass


def _children_of(parent: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat[stat.rfind(b")") + 2:].split()[1]) == parent:
                found.append(int(name))
    return found


def _uid_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def _is_sandbox_process(pid: int, uid: int | None) -> bool:
    if pid in _unreaped:
        return True
    if uid is not None and SANDBOX_UID_BASE <= uid < SANDBOX_UID_BASE + (1 << 22):
        return True
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            return any(line.startswith(b"NSpid:") and len(line.split()) > 2 for line in f)
    except OSError:
        return False


def _reap(pid: int) -> tuple[int | None, float]:
    try:
        _, status, usage = os.wait4(pid, 0)
    except ChildProcessError:  # someone else reaped it (a SIGCHLD handler with waitpid(-1))
        return None, 0.0
    return status, usage.ru_utime + usage.ru_stime


class _Run:
    """The parent's state while one child runs."""

    def __init__(self, calls: list[Call], limits: Limits, t0: float) -> None:
        self.t0 = t0
        self.calls = calls
        self.limits = limits
        self.reader = FrameReader(limits.max_result_bytes)
        self.end = Ending()
        self.signature: list[dict] | None = None
        self.results: list[CallResult] = []
        self.stdout = bytearray()
        self.out_total = 0
        self.user_ns: str | None = None
        self.init_fd: int | None = None
        self.init_pid: int | None = None
        self.timings: dict[str, float] = {}

    def collect(self, pid: int, res_r: int, out_r: int, t0: float) -> None:
        """Read both pipes until a final frame, the child's exit, a limit, or the deadline."""
        for fd in (res_r, out_r):
            os.set_blocking(fd, False)
        pidfd = os.pidfd_open(pid)
        try:
            poller = select.poll()
            for fd in (res_r, out_r, pidfd):
                poller.register(fd, select.POLLIN)
            deadline = t0 + self.limits.wall_s
            exited = False
            while True:
                left = deadline - time.perf_counter()
                if left <= 0:
                    self.end.reason = "timeout"
                    return
                for fd, _ in poller.poll(math.ceil(left * 1000)):
                    if fd == pidfd:
                        exited = True
                    elif not self._drain(fd, fd == res_r):
                        poller.unregister(fd)
                if self.end.reason or self.end.terminal or exited:
                    # Whatever is already in the pipes belongs to this run; nothing more is awaited.
                    self._drain(res_r, True)
                    self._drain(out_r, False)
                    break
            self.timings["to_result_ms"] = (time.perf_counter() - t0) * 1e3
        finally:
            os.close(pidfd)

    def _drain(self, fd: int, is_result: bool) -> bool:
        """Read what is available; False once the pipe is closed."""
        while not self.end.reason and not (is_result and self.end.terminal):
            try:
                data = os.read(fd, _READ_CHUNK)
            except BlockingIOError:
                return True
            except OSError as exc:
                if exc.errno == errno.EINTR:
                    continue
                return False
            if not data:
                return False
            if is_result:
                self._on_result_bytes(data)
            else:
                self._on_output(data)
        return True

    def _on_output(self, data: bytes) -> None:
        self.out_total += len(data)
        room = self.limits.output_bytes - len(self.stdout)
        if room > 0:
            self.stdout += data[:room]
        if self.out_total > self.limits.output_kill_bytes:
            self.end.reason = "output"

    def _on_result_bytes(self, data: bytes) -> None:
        try:
            for header, blob in self.reader.feed(data):
                self._on_frame(header, blob)
                if self.end.terminal:
                    break
        except ResultTooLarge:
            self.end.reason = "result-size"
        except FrameError as exc:
            self.end.reason = "malformed"
            self.end.reason_detail = str(exc)

    def _on_frame(self, h: dict, blob: bytes) -> None:
        kind = h["type"]
        if kind == "hello" and not self.end.hello:
            self.end.hello = True
            notes = h.get("notes")
            if isinstance(notes, list):
                self.end.notes += [visible(str(n)[:300]) for n in notes]
            facts = h.get("facts") if isinstance(h.get("facts"), dict) else {}
            if isinstance(facts.get("user_ns"), str):
                self.user_ns = facts["user_ns"]
            init = facts.get("pid_ns_init")
            if type(init) is int and init > 1 and is_pid_ns_init(init, os.geteuid()):
                try:  # held from now on, so a recycled pid can never be signalled by mistake
                    self.init_fd = os.pidfd_open(init)
                    self.init_pid = init
                except OSError:
                    pass
            self._timing("setup_ms", h.get("setup_ms"))
            self._timing("forget_ms", h.get("forget_ms"))
            if type(h.get("started")) is float:  # perf_counter is CLOCK_MONOTONIC, shared with the child
                self._timing("fork_ms", (h["started"] - self.t0) * 1e3)
        elif kind == "error":  # also a failure while setting up, before any candidate code ran
            self.end.terminal = h
        elif not self.end.hello:
            raise FrameError(f"{kind!r} frame before the sandbox was set up")
        elif kind == "signature" and not self.end.loaded:
            self.end.loaded = True
            self.signature = _signature(h.get("params"))
            self._timing("load_ms", h.get("load_ms"))
        elif kind == "call" and self.end.loaded:
            self._on_call(h, blob)
        elif kind == "done" and self.end.loaded:
            if self.end.calls_done != len(self.calls):
                raise FrameError("done before every call was reported")
            self._timing("calls_ms", h.get("calls_ms"))
            self.end.terminal = h
        else:
            raise FrameError(f"unexpected {kind!r} frame")

    def _timing(self, key: str, value) -> None:
        if type(value) in (int, float) and 0 <= value < 1e9:
            self.timings[key] = float(value)

    def _on_call(self, h: dict, blob: bytes) -> None:
        index = self.end.calls_done
        if h.get("index") != index or index >= len(self.calls):
            raise FrameError("call results out of order")
        if h.get("ok") is True:
            grads_in = h.get("grads")
            if not isinstance(grads_in, dict):
                raise FrameError("malformed grads")
            grads = {}
            for name in self.calls[index].grad_wrt:
                g = decode_value(grads_in.get(name, {"t": "none"}), blob)
                if g is not None and not hasattr(g, "origin"):
                    raise FrameError("a gradient that is not an array")
                grads[name] = g
            grad_error = h.get("grad_error")
            result = CallResult(index, True, decode_value(h.get("value"), blob), grads,
                                None if grad_error is None else str(grad_error)[:500])
        elif h.get("ok") is False and self.calls[index].expect_error:
            e = h.get("error") if isinstance(h.get("error"), dict) else {}
            line = e.get("line")
            result = CallResult(index, False, error=CallError(
                visible(str(e.get("type", "?"))[:80]), visible(str(e.get("message", ""))[:500]),
                line if type(line) is int else None))
        else:
            raise FrameError("malformed call result")
        self.results.append(result)
        self.end.calls_done += 1


def _signature(params) -> list[dict] | None:
    if not isinstance(params, list):
        return None
    out = []
    for p in params[:100]:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise FrameError("malformed signature")
        default = p.get("default")
        if not (default is None or type(default) in (bool, int, float, str)):
            default = str(default)[:200]
        if isinstance(default, str):
            default = visible(default)
        out.append({"name": visible(p["name"][:100]), "kind": visible(str(p.get("kind", ""))[:40]),
                    "default": default, "has_default": p.get("has_default") is True})
    return out

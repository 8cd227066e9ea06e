"""`run_candidate`: fork, let the child run the answer, read its frames under a wall-clock deadline,
kill everything it started, reap it, and classify the ending.

The parent is the trusted process (the checker worker, or the CLI), prepared by `prepare_parent`
(parent.py): numpy and torch imported before forking, so the child inherits them for free (~7 ms per
fork instead of 1.8 s of import), and no multi-threaded op run first.
"""
from __future__ import annotations

import errno
import json
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
                  limits: Limits = Limits(), preload: tuple = (), forget: tuple | None = None,
                  on_result=None) -> RunResult:
    """Run `function` from the module `source` in a confined child, once per `Call`, and report.

    `preload`: trusted modules `(name, source, filename)` created in the child before the answer runs,
    so that it can import them; with `function` written `module:attr`, that preloaded function is
    called with the answer's module as its first argument (how test files are run).

    `forget`: `(wipe, packages)`: in the child, before the answer runs, `wipe()` is called (the
    caller empties what it holds that the answer must not read; None for nothing) and every module
    of `packages` (top-level names) except the sandbox's own is emptied and dropped from
    `sys.modules`, so that nothing of the caller's stays reachable from the answer but what it was
    given. By default the project's own packages (`CALLER_PACKAGES`); `()` forgets nothing.

    `on_result(CallResult)`: called in this process for each call's result as it arrives (while the
    answer goes on with other calls), in call order within each slice of a spare's calls; results of
    a slice after one that ended early reach it too, but only those the returned `RunResult` holds
    count (what a single child would have reported).

    Uses the spare children `fork_spare` made for the same function, calls (the same list object),
    limits, preload and forget, if there are any; otherwise forks a fresh child.

    Never raises for anything the answer does; every ending is a `RunResult` (see `SandboxError`
    for the kinds). Blocks for at most about `limits.wall_s` plus cleanup.
    """
    prepare_parent()
    reap_finished()
    t0 = time.perf_counter()
    children = _take_spare(function, calls, limits, preload, forget)
    spare = children is not None
    if children is None:
        children = [_fork_child(function, list(calls), 0, limits, preload, _forget_list(forget, function, calls),
                                keeper_s=_KEEPER_S)]
    request = json.dumps({"source": source, "filename": filename}).encode()
    shared = _Shared()
    runs = [_Run(c.calls, limits, t0, c.req_w, c.offset, shared, request) for c in children]
    try:
        _collect(children, runs, t0, limits.wall_s, on_result)
    finally:
        for child, run in zip(children, runs):
            _end(child, run)
    elapsed = (time.perf_counter() - t0) * 1e3
    return _merge(runs, limits, filename, elapsed, spare)


def _merge(runs: list["_Run"], limits: Limits, filename: str, elapsed: float, spare: bool) -> RunResult:
    """One `RunResult` from the runs of consecutive slices of the calls: what a single child running
    them all would have reported. The first run that did not finish ends the result; the runs after it
    (which a single child would never have reached) are dropped."""
    kept, error = [], None
    for run in runs:
        kept.append(run)
        run.end.output = bytes(run.stdout)
        error = classify(run.end, limits, filename)
        if error is not None:
            break
    first = next((r for r in kept if r.signature is not None), kept[0])
    out = b""
    for r in kept:
        out += bytes(r.stdout)
        for text in r.warnings:
            if text.encode() not in out:
                out += text.encode()
    printed = sum(r.out_total for r in kept)
    notes: list[str] = []
    for r in kept:
        notes += [n for n in r.end.notes if n not in notes]
    timings = dict(runs[0].timings)
    timings["total_ms"] = elapsed
    # calls_ms: the longest slice's calls; calls_total_ms: every slice's together (the answer's work)
    timings["calls_total_ms"] = sum(r.timings.get("calls_ms", 0.0) for r in kept)
    if len(runs) > 1:
        timings["calls_ms"] = max(r.timings.get("calls_ms", 0.0) for r in kept)
        timings["to_result_ms"] = max(r.timings.get("to_result_ms", 0.0) for r in kept)
        timings["parts"] = float(len(runs))
    if spare:
        timings["spare"] = 1.0
    kept_out = out[:limits.output_bytes]
    return RunResult(ok=error is None, error=error, signature=first.signature,
                     results=[res for r in kept for res in r.results],
                     stdout=visible(kept_out.decode("utf-8", errors="replace")),
                     stdout_truncated=printed > len(kept_out), elapsed_ms=elapsed, notes=notes, timings=timings,
                     call_ms=[ms for r in kept for ms in r.call_ms])


#: How much longer than the wall-clock limit a run's pid-namespace keeper lives (ordinary users):
#: long enough for the run, short enough that a checker which died mid-check leaves nothing for long.
_KEEPER_S = 30.0
#: A spare is used only this long after its fork, and its keeper lives this much longer: an idle
#: worker forks a fresh one before then (`spare_age`).
SPARE_MAX_AGE_S = 60.0


class _Child:
    """A forked child, confined (or confining itself), waiting for its source on `req_w`; it runs the
    calls `offset` to `offset + len(calls)` of the run."""

    def __init__(self, pid, res_r, out_r, req_w, calls, offset) -> None:
        self.pid, self.res_r, self.out_r, self.req_w = pid, res_r, out_r, req_w
        self.calls, self.offset = calls, offset


class _Spare:
    """Children forked ahead of time for one run's arguments, each for a consecutive slice of its calls."""

    def __init__(self, children, function, calls_given, calls, limits, preload, forget) -> None:
        self.children = children
        self.function, self.calls_given, self.calls = function, calls_given, calls
        self.limits, self.preload, self.forget = limits, preload, forget
        self.forked_at = time.monotonic()

    def serves(self, function, calls, limits, preload, forget) -> bool:
        """Whether these children were made for exactly this run (the same calls list, element for element)."""
        return (self.function == function and self.calls_given is calls and len(self.calls) == len(calls)
                and all(a is b for a, b in zip(self.calls, calls)) and self.limits == limits
                and self.preload == preload and self.forget == forget)


def _forget_list(forget, function, calls):
    if forget is None:
        forget = (None, CALLER_PACKAGES)
    if forget:
        forget = (forget[0], forgotten_modules(forget[1], function, calls))
    return forget


def _fork_child(function, calls, offset, limits, preload, forget, keeper_s: float,
                rehearsal: str | None = None) -> _Child:
    res_r, res_w = os.pipe2(os.O_CLOEXEC)
    out_r, out_w = os.pipe2(os.O_CLOEXEC)
    req_r, req_w = os.pipe2(os.O_CLOEXEC)
    parent_pid = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, never returns
        try:
            child_main(function, calls, limits, res_w, out_w, req_r, parent_pid, preload, forget, keeper_s,
                       offset, [rehearsal] if rehearsal else None)
        finally:
            os._exit(99)
    for fd in (res_w, out_w, req_r):
        os.close(fd)
    return _Child(pid, res_r, out_r, req_w, calls, offset)


def _end(child: _Child, run: "_Run") -> None:
    """Kill everything the child started, close its pipes, reap it (or leave it to be reaped)."""
    t_kill = time.perf_counter()
    root = os.geteuid() == 0
    run.end.notes += kill_tree(child.pid, sandbox_uid(child.pid) if root else None, run.user_ns, run.init_fd,
                               run.init_pid)
    if run.init_fd is not None:
        os.close(run.init_fd)
        run.init_fd = None
    if run.end.terminal is None and run.end.reason is None:
        # The ending is told by the exit status, and the child has already exited.
        run.end.status, run.end.cpu_s = _reap(child.pid)
    else:
        _unreaped.add(child.pid)  # dying of SIGKILL; reaped by the next run or reap_finished()
    for fd in (child.res_r, child.out_r) + ((run.req_fd,) if run.req_fd is not None else ()):
        os.close(fd)
    run.req_fd = child.req_w = None
    run.timings["cleanup_ms"] = (time.perf_counter() - t_kill) * 1e3


_spare: _Spare | None = None


def _split(calls: list, parts: int, weights: list[float] | None = None) -> list[int]:
    """Where to cut `calls` into `parts` consecutive slices of about equal work: the start of each
    slice. The work of a call is its weight where `weights` gives one per call (what each took last
    time), else estimated from the elements of its array arguments plus a fixed cost per call."""
    def cost(value) -> float:
        if isinstance(value, (tuple, list)):
            return sum(cost(v) for v in value)
        if isinstance(value, dict):
            return sum(cost(v) for v in value.values())
        size = getattr(value, "size", None)
        numel = getattr(value, "numel", None)
        n = numel() if callable(numel) else size if isinstance(size, int) else 0
        return n / 256.0

    if weights is not None and len(weights) == len(calls) and sum(weights) > 0:
        costs = [max(0.0, float(w)) for w in weights]
    else:
        costs = [1.0 + cost(c.args) + cost(c.kwargs) for c in calls]
    total = sum(costs)
    starts, acc, k = [0], 0.0, 1
    for i, c in enumerate(costs):
        acc += c
        if k < parts and acc >= total * k / parts and i + 1 < len(calls):
            starts.append(i + 1)
            k += 1
    return starts


def fork_spare(function: str, calls: list[Call], *, limits: Limits = Limits(), preload: tuple = (),
               forget: tuple | None = None, parts: int = 1, weights: list[float] | None = None,
               rehearsal: str | None = None) -> None:
    """Fork and confine, ahead of time, the children of the next `run_candidate` with these arguments
    (the same `calls` list object, unchanged), so that run costs only the answer's own work: no fork,
    no confinement, nothing to forget on the way. With `parts` > 1, each of that many children runs a
    consecutive slice of the calls, at the same time (the result is the one a single child gives;
    see `_merge`), cut so that the slices take about as long (`weights`: what each call took last
    time, as `RunResult.call_ms` says). One spare at a time; a new one replaces the old, unless the old
    one was made for the same arguments less than `SPARE_MAX_AGE_S / 2` ago.

    `rehearsal`: a trusted source defining `function` (the drill's model answer) that each child runs
    over its slice of the calls while it waits, keeping nothing (`child._rehearse`): the candidate's run
    then finds the code and memory those calls use already touched. It cannot change a result.

    For a long-lived checker between checks (the worker behind the app and `watch`): the spare waits,
    confined, for its source; it dies with this process. A run with other arguments forks afresh.
    """
    global _spare
    listed = list(calls)
    starts = _split(listed, max(1, parts), weights) if listed else [0]
    if _spare is not None and _spare.serves(function, calls, limits, preload, forget) \
            and len(_spare.children) == len(starts) and spare_age() < SPARE_MAX_AGE_S / 2 \
            and all(_alive(c.pid) for c in _spare.children):
        return  # the spare already there is the one asked for, and young
    discard_spare()
    prepare_parent()
    reap_finished()
    forget_list = _forget_list(forget, function, listed)
    bounds = list(zip(starts, starts[1:] + [len(listed)]))
    children = []
    try:
        for a, b in bounds:
            children.append(_fork_child(function, listed[a:b], a, limits, preload, forget_list,
                                        keeper_s=_KEEPER_S + SPARE_MAX_AGE_S, rehearsal=rehearsal))
    finally:
        _spare = _Spare(children, function, calls, listed, limits, preload, forget)


def spare_age() -> float | None:
    """Seconds since the spare was forked (None when there is none)."""
    return None if _spare is None else time.monotonic() - _spare.forked_at


def discard_spare() -> None:
    """End the spare children, if any (each exits on an empty request; whatever it started is killed)."""
    global _spare
    spare, _spare = _spare, None
    if spare is None:
        return
    t0 = time.perf_counter()
    runs = [_Run(c.calls, Limits(wall_s=2.0), t0, c.req_w, c.offset, _Shared(), b"") for c in spare.children]
    try:
        _collect(spare.children, runs, t0, 2.0)
    finally:
        for child, run in zip(spare.children, runs):
            _end(child, run)


def _take_spare(function, calls, limits, preload, forget) -> list[_Child] | None:
    global _spare
    spare = _spare
    if spare is None:
        return None
    if not spare.serves(function, calls, limits, preload, forget) or spare_age() > SPARE_MAX_AGE_S \
            or not all(_alive(c.pid) for c in spare.children):
        discard_spare()
        return None
    _spare = None
    return spare.children


def _alive(pid: int) -> bool:
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return info is None


class _Shared:
    """What the runs of one check count together: the output printed and the result bytes sent."""

    def __init__(self) -> None:
        self.printed = 0
        self.blob = 0


def _settled(runs: list["_Run"]) -> bool:
    """Whether nothing more can change the outcome: every run ended, or the earliest that did not
    report all its calls has ended (a single child would never have reached the runs after it)."""
    for run in runs:
        if not run.done:
            return False
        if not run.finished_all():
            return True
    return True


def _collect(children: list[_Child], runs: list["_Run"], t0: float, wall_s: float, on_result=None) -> None:
    """Send each child its request, and read every child's pipes until each has sent a final frame,
    exited or passed a limit (or until an earlier slice ended early, which settles the run), or until
    the deadline."""
    pidfds = []
    try:
        poller = select.poll()
        where: dict[int, tuple[_Run, str]] = {}
        for child, run in zip(children, runs):
            run.on_result = on_result
            for fd in (child.res_r, child.out_r) + ((run.req_fd,) if run.req_fd is not None else ()):
                os.set_blocking(fd, False)
            run.fds = (child.res_r, child.out_r)
            watched = [(child.res_r, "res"), (child.out_r, "out")]
            try:
                pidfd = os.pidfd_open(child.pid)
            except ProcessLookupError:  # already gone: its pipes tell the rest
                run.exited = True
            else:
                pidfds.append(pidfd)
                watched.append((pidfd, "pid"))
            for fd, role in watched:
                poller.register(fd, select.POLLIN)
                where[fd] = (run, role)
            if run.req_fd is not None:
                where[run.req_fd] = (run, "req")
                poller.register(run.req_fd, select.POLLOUT)
                run.send_request(poller)
        deadline = t0 + wall_s
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                for run in runs:
                    if not run.done:
                        run.end.reason = "timeout"
                        run.done = True
                return
            for fd, _ in poller.poll(math.ceil(left * 1000)):
                run, role = where.get(fd, (None, ""))
                if run is None or run.done:
                    continue
                if role == "pid":
                    run.exited = True
                elif role == "req":
                    run.send_request(poller)
                elif not run.drain(fd, role == "res"):
                    poller.unregister(fd)
                    del where[fd]
            for run in runs:
                if not run.done and (run.end.reason or run.end.terminal or run.exited):
                    # Whatever is already in the pipes belongs to this run; nothing more is awaited.
                    run.drain(run.fds[0], True)
                    run.drain(run.fds[1], False)
                    run.done = True
                    run.timings["to_result_ms"] = (time.perf_counter() - t0) * 1e3
            if _settled(runs):
                for run in runs:
                    if not run.done:  # after a slice that ended early: never reached by a single child
                        run.end.reason = "dropped"
                        run.done = True
                break
    finally:
        for fd in pidfds:
            os.close(fd)


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
    """A process of a finished run (one waiting as a spare is not: it is reaped when it is ended)."""
    if _spare is not None and any(c.pid == pid for c in _spare.children):
        return False
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
    """The parent's state while one child runs its slice of the calls (from `offset` on)."""

    def __init__(self, calls: list[Call], limits: Limits, t0: float, req_fd: int | None = None, offset: int = 0,
                 shared: "_Shared | None" = None, request: bytes = b"") -> None:
        self.t0 = t0
        self.on_result = None
        self.req_fd = req_fd  # the child's stdin, until the request is whole
        self.request = request  # what is still to be sent on it
        self.calls = calls
        self.offset = offset
        self.limits = limits
        self.shared = shared if shared is not None else _Shared()
        self.reader = FrameReader(limits.max_result_bytes, self.shared)
        self.end = Ending(calls_done=offset)
        self.signature: list[dict] | None = None
        self.results: list[CallResult] = []
        self.stdout = bytearray()
        self.out_total = 0
        self.user_ns: str | None = None
        self.init_fd: int | None = None
        self.init_pid: int | None = None
        self.timings: dict[str, float] = {}
        self.call_ms: list[float] = []  # per reported call, as the child measured it (for splitting only)
        self.warnings: list[str] = []  # a later slice's warnings, printed only if no earlier slice did
        self.exited = False
        self.done = False
        self.fds: tuple[int, int] = (-1, -1)

    def finished_all(self) -> bool:
        """Ended with every call of its slice reported."""
        return (self.done and self.end.reason is None and self.end.terminal is not None
                and self.end.terminal.get("type") == "done")

    def send_request(self, poller) -> None:
        """Write what the pipe takes of the request; once all is written (or the child stopped
        reading), close the pipe: end of file tells the child the request is whole."""
        req_w = self.req_fd
        try:
            while self.request:
                self.request = self.request[os.write(req_w, self.request):]
        except BlockingIOError:
            return
        except OSError:  # the child is gone or closed its stdin: its ending tells the rest
            self.request = b""
        poller.unregister(req_w)
        os.close(req_w)
        self.req_fd = None

    def drain(self, fd: int, is_result: bool) -> bool:
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
        self.shared.printed += len(data)
        room = self.limits.output_bytes - len(self.stdout)
        if room > 0:
            self.stdout += data[:room]
        if self.shared.printed > self.limits.output_kill_bytes:
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
        elif kind == "warning":
            if isinstance(h.get("text"), str) and len(self.warnings) < 100:
                self.warnings.append(visible(h["text"][:2000]))
        elif kind == "call" and self.end.loaded:
            self._on_call(h, blob)
        elif kind == "done" and self.end.loaded:
            if self.end.calls_done != self.offset + len(self.calls):
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
        if h.get("index") != index or index - self.offset >= len(self.calls):
            raise FrameError("call results out of order")
        call = self.calls[index - self.offset]
        if h.get("ok") is True:
            grads_in = h.get("grads")
            if not isinstance(grads_in, dict):
                raise FrameError("malformed grads")
            grads = {}
            for name in call.grad_wrt:
                g = decode_value(grads_in.get(name, {"t": "none"}), blob)
                if g is not None and not hasattr(g, "origin"):
                    raise FrameError("a gradient that is not an array")
                grads[name] = g
            grad_error = h.get("grad_error")
            result = CallResult(index, True, decode_value(h.get("value"), blob), grads,
                                None if grad_error is None else str(grad_error)[:500])
        elif h.get("ok") is False and call.expect_error:
            e = h.get("error") if isinstance(h.get("error"), dict) else {}
            line = e.get("line")
            result = CallResult(index, False, error=CallError(
                visible(str(e.get("type", "?"))[:80]), visible(str(e.get("message", ""))[:500]),
                line if type(line) is int else None))
        else:
            raise FrameError("malformed call result")
        ms = h.get("ms")
        self.call_ms.append(float(ms) if type(ms) in (int, float) and 0 <= ms < 1e9 else 0.0)
        self.results.append(result)
        self.end.calls_done += 1
        if self.on_result is not None:
            self.on_result(result)


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

"""`run_candidate`: have the zygote fork a child that runs the answer, send it the source, read its frames
under a wall-clock deadline, kill everything it started, and classify the ending.

The trusted process (the checker worker, or the CLI) never forks an answer itself: every child comes from
its zygote (zygote.py), which holds numpy, torch and the sandbox and nothing of the checker's content, so
an answer's memory holds no reference, no model answer and no expected result. The zygote is started by
`prepare_parent` (parent.py), first thing.
"""
from __future__ import annotations

import atexit
import errno
import json
import math
import os
import select
import time

from checker.sandbox.classify import Ending, classify
from checker.sandbox.frames import FrameError, FrameReader, ResultTooLarge, decode_value
from checker.sandbox.isolation import sandbox_uid
from checker.sandbox.model import Call, CallError, CallResult, Limits, RunResult
from checker.sandbox.parent import prepare_parent
from checker.sandbox.sweep import answer_process_fd, await_exit, kill_tree
from checker.sandbox.text import visible
from checker.sandbox.zygote import zygote

_READ_CHUNK = 1 << 16
#: At most this much is read from one pipe before the deadline is looked at again: an answer writing
#: as fast as it can must not keep the reader from its clock.
_DRAIN_BYTES = 1 << 20
#: Header bytes (frames' JSON) a run may send besides its result bytes (`Limits.max_result_bytes`): a
#: flood of small well-formed frames ends the run like a flood of result bytes.
HEADER_ALLOWANCE = 16 * 1024 * 1024


def run_candidate(source: str, function: str, calls: list[Call], *, filename: str = "answer.py",
                  limits: Limits = Limits(), preload: tuple = (), on_result=None) -> RunResult:
    """Run `function` from the module `source` in a confined child, once per `Call`, and report.

    `preload`: trusted modules `(name, source, filename)` created in the child before the answer runs,
    so that it can import them; with `function` written `module:attr`, that preloaded function is
    called with the answer's module as its first argument (how test files are run). They reach the
    child with the source, never the zygote, so no other child ever holds them.

    `on_result(CallResult)`: called in this process for each call's result as it arrives (while the
    answer goes on with other calls), in call order within each slice of a spare's calls; results of
    a slice after one that ended early reach it too, but only those the returned `RunResult` holds
    count (what a single child would have reported).

    Uses the spare children `fork_spare` made for the same function, calls (the same list object),
    limits, if there are any; otherwise has the zygote fork a fresh child.

    Never raises for anything the answer does; every ending is a `RunResult` (see `SandboxError`
    for the kinds). Blocks for at most about `limits.wall_s` plus cleanup.
    """
    prepare_parent()
    settle()  # what earlier runs left dying (dead by now, as a rule)
    t0 = time.perf_counter()
    children = _take_spare(function, calls, limits)
    spare = children is not None
    if children is None:
        children = [_fork_child(function, calls, 0, len(calls), limits)]
    request = json.dumps({"source": source, "filename": filename, "preload": [list(p) for p in preload]}).encode()
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


#: A spare is used only this long after its fork: an idle worker forks a fresh one before then
#: (`spare_age`).
SPARE_MAX_AGE_S = 60.0


class _Child:
    """A child the zygote forked (its keeper's pid and a pidfd on it), waiting for its source on `req_w`;
    it runs the calls `offset` to `offset + len(calls)` of the run."""

    def __init__(self, pid, pidfd, res_r, out_r, req_w, calls, offset) -> None:
        self.pid, self.pidfd, self.res_r, self.out_r, self.req_w = pid, pidfd, res_r, out_r, req_w
        self.calls, self.offset = calls, offset


class _Spare:
    """Children forked ahead of time for one run's arguments, each for a consecutive slice of its calls."""

    def __init__(self, children, function, calls_given, calls, limits) -> None:
        self.children = children
        self.function, self.calls_given, self.calls = function, calls_given, calls
        self.limits = limits
        self.forked_at = time.monotonic()

    def serves(self, function, calls, limits) -> bool:
        """Whether these children were made for exactly this run (the same calls list, element for element)."""
        return (self.function == function and self.calls_given is calls and len(self.calls) == len(calls)
                and all(a is b for a, b in zip(self.calls, calls)) and self.limits == limits)


def _fork_child(function, calls, start: int, stop: int, limits) -> _Child:
    pid, pidfd, res_r, out_r, req_w = zygote().fork(function, calls, start, stop, limits)
    return _Child(pid, pidfd, res_r, out_r, req_w, list(calls[start:stop]), start)


#: pidfds of answers' processes killed and not yet seen to exit (each takes its pid namespace with it)
_dying: list[int] = []


def settle(budget_s: float = 2.0) -> None:
    """Wait until every run's processes killed so far have exited (at most `budget_s` each). Each run kills
    its processes before it returns, so none runs code again; the wait for their teardown, a few
    milliseconds, is done here, off the check's critical path: before the next run, when a spare is
    discarded, and at exit."""
    while _dying:
        fd = _dying.pop()
        try:
            await_exit(fd, budget_s)
        finally:
            os.close(fd)


atexit.register(settle)


def _end(child: _Child, run: "_Run") -> None:
    """Kill everything the child started, close its pipes, and learn how it ended where nothing else told."""
    t_kill = time.perf_counter()
    root = os.geteuid() == 0
    run.end.notes += kill_tree(child.pid, child.pidfd, run.answer_fd, sandbox_uid(child.pid) if root else None,
                               wait=False)
    if run.answer_fd is not None:
        _dying.append(run.answer_fd)
    if child.pidfd is not None:
        os.close(child.pidfd)
    run.answer_fd = child.pidfd = None
    if run.end.terminal is None and run.end.reason is None:
        # The ending is told by the exit status: the answer's process ended on its own.
        run.end.status, run.end.cpu_s = zygote().exit_status(child.pid)
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


def fork_spare(function: str, calls: list[Call], *, limits: Limits = Limits(), parts: int = 1,
               weights: list[float] | None = None) -> None:
    """Have the zygote fork and confine, ahead of time, the children of the next `run_candidate` with these
    arguments (the same `calls` list object, unchanged), so that run costs only the answer's own work: no
    fork, no confinement on the way. With `parts` > 1, each of that many children runs a consecutive
    slice of the calls, at the same time (the result is the one a single child gives; see `_merge`), cut
    so that the slices take about as long (`weights`: what each call took last time, as
    `RunResult.call_ms` says). One spare at a time; a new one replaces the old, unless the old one was
    made for the same arguments less than `SPARE_MAX_AGE_S / 2` ago.

    For a long-lived checker between checks (the worker behind the app and `watch`): the spare waits,
    confined, for its source; it dies with this process. A run with other arguments forks afresh.
    """
    global _spare
    listed = list(calls)
    starts = _split(listed, max(1, parts), weights) if listed else [0]
    if _spare is not None and _spare.serves(function, calls, limits) \
            and len(_spare.children) == len(starts) and spare_age() < SPARE_MAX_AGE_S / 2 \
            and all(_alive(c) for c in _spare.children):
        return  # the spare already there is the one asked for, and young
    discard_spare()
    prepare_parent()
    settle()
    bounds = list(zip(starts, starts[1:] + [len(listed)]))
    children = []
    try:
        for a, b in bounds:
            children.append(_fork_child(function, calls, a, b, limits))
    finally:
        _spare = _Spare(children, function, calls, listed, limits)


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
            run.end.reason = run.end.reason or "discarded"  # its ending needs no exit status
            _end(child, run)
        settle()


def _take_spare(function, calls, limits) -> list[_Child] | None:
    global _spare
    spare = _spare
    if spare is None:
        return None
    if not spare.serves(function, calls, limits) or spare_age() > SPARE_MAX_AGE_S \
            or not all(_alive(c) for c in spare.children):
        discard_spare()
        return None
    _spare = None
    return spare.children


def _alive(child: _Child) -> bool:
    return child.pidfd is not None and not select.select([child.pidfd], [], [], 0)[0]


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


def _send_request(run: "_Run", poller, where: dict) -> None:
    fd = run.req_fd
    run.send_request(poller)
    if run.req_fd is None:  # sent whole, and closed
        where.pop(fd, None)


def _collect(children: list[_Child], runs: list["_Run"], t0: float, wall_s: float, on_result=None) -> None:
    """Send each child its request, and read every child's pipes until each has sent a final frame,
    exited or passed a limit (or until an earlier slice ended early, which settles the run), or until
    the deadline. However fast a child writes, the deadline is looked at after each `_DRAIN_BYTES`."""
    poller = select.poll()
    where: dict[int, tuple[_Run, str]] = {}
    for child, run in zip(children, runs):
        run.on_result = on_result
        for fd in (child.res_r, child.out_r) + ((run.req_fd,) if run.req_fd is not None else ()):
            os.set_blocking(fd, False)
        run.fds = (child.res_r, child.out_r)
        run.keeper = child.pid
        watched = [(child.res_r, "res"), (child.out_r, "out"), (child.pidfd, "pid")]
        for fd, role in watched:
            poller.register(fd, select.POLLIN)
            where[fd] = (run, role)
        if run.req_fd is not None:
            where[run.req_fd] = (run, "req")
            poller.register(run.req_fd, select.POLLOUT)
            _send_request(run, poller, where)
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
                poller.unregister(fd)  # readable from now on: looked at once
                del where[fd]
            elif role == "req":
                _send_request(run, poller, where)
            elif not run.drain(fd, role == "res", _DRAIN_BYTES):
                poller.unregister(fd)
                del where[fd]
        for run in runs:
            if not run.done and (run.end.reason or run.end.terminal or run.exited):
                # Whatever is already in the pipes belongs to this run; nothing more is awaited.
                run.drain(run.fds[0], True, _DRAIN_BYTES)
                run.drain(run.fds[1], False, _DRAIN_BYTES)
                run.done = True
                for fd in [fd for fd, (owner, _) in where.items() if owner is run]:
                    poller.unregister(fd)  # nothing more is read from a run that is over
                    del where[fd]
                run.timings["to_result_ms"] = (time.perf_counter() - t0) * 1e3
        if _settled(runs):
            for run in runs:
                if not run.done:  # after a slice that ended early: never reached by a single child
                    run.end.reason = "dropped"
                    run.done = True
            break


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
        self.keeper: int | None = None
        self.answer_fd: int | None = None  # a pidfd on the answer's process, once its hello named it
        self.result_bytes = 0  # every byte read from the result pipe, headers included
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

    def drain(self, fd: int, is_result: bool, budget: int) -> bool:
        """Read what is available, at most about `budget` bytes; False once the pipe is closed."""
        read = 0
        while not self.end.reason and not (is_result and self.end.terminal) and read < budget:
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
            read += len(data)
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
        self.result_bytes += len(data)
        if self.result_bytes > self.limits.max_result_bytes + HEADER_ALLOWANCE:
            self.end.reason = "result-size"
            return
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
            answer = facts.get("answer_pid")
            if type(answer) is int and answer > 1 and answer != self.keeper and facts.get("pid_ns") is True:
                # held from now on, so a recycled pid can never be signalled by mistake
                self.answer_fd = answer_process_fd(answer, self.keeper)
            self._timing("setup_ms", h.get("setup_ms"))
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
        elif kind == "warning":  # printed output in all but name: it counts against the output limit
            text = h.get("text") if isinstance(h.get("text"), str) else ""
            self.shared.printed += len(text) + 32  # and its frame: an empty warning is not free
            if self.shared.printed > self.limits.output_kill_bytes:
                self.end.reason = "output"
            elif text and len(self.warnings) < 100:
                self.warnings.append(visible(text[:2000]))
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

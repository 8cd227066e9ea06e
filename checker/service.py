"""The warm checker worker the app (and anything long-running) talks to.

`CheckerClient` starts `python -m checker.service` in the background: a trusted process that imports
torch, numpy and hypothesis once and answers check requests — each one handing the candidate's code to a
fresh sandboxed child — in tens of milliseconds. While no request waits it warms up, one drill at a time:
draws the drill's examples, computes its reference results and loads its mistake catalogue (a check sent
meanwhile waits for one drill's warm-up at most, not for all of them). Between checks
the worker keeps a spare child forked and confined for the drill it checked last (refreshed while it
idles), so checking that drill again skips fork and confinement. The client's
module imports nothing heavy, so the app opens fast while the worker warms up.

Protocol: one JSON object per line. Request `{"id", "op": "check", "source", "drill", "framework",
"seed"}`, or `{"op": "prepare", "drill", "framework", "seed"}` (a drill was opened: fork its check's
sandbox child now; no reply), or `{"id", "op": "warm"}` (finish the warm-up now; reply
`{"id", "ok": true}`); a check's reply is `{"id", "ok": true, "report": Report.to_json()}`, or
`{"id", "ok": false, "usage": msg}` when the drill or framework cannot be inferred, `{"id", "ok": false, "cancelled": true}` when the client
abandoned it (SIGUSR1: a newer check supersedes it; the candidate's process is killed at once), or
`{"id", "ok": false, "error": msg}` when the checker itself failed. The worker announces
`{"ready": true}` once imported and exits when its stdin closes. `{"op": "cancel", "ids": [...]}` (no
reply) marks checks as abandoned: one still waiting in the queue (the worker was warming up or busy when
it was superseded) is answered `cancelled` without running; the one running is stopped by SIGUSR1.
"""
from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future


class CheckerUnavailable(RuntimeError):
    """The checker worker could not be started or died; the message says why."""


class CheckCancelled(RuntimeError):
    """The check was abandoned because a newer one superseded it (`CheckerClient.cancel_running`)."""


class CheckerClient:
    """A handle on one warm checker worker process. Thread-safe; requests are answered in order."""

    def __init__(self, python: str | None = None, start: bool = True, env: dict | None = None):
        self._python = python or sys.executable
        self._env = env
        self._proc: subprocess.Popen | None = None
        self._pending: dict[int, Future] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._ready = threading.Event()
        self._stderr: deque[str] = deque(maxlen=40)
        self._dead: str | None = None
        if start:
            self.start()

    # ---- lifecycle ----------------------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                return
            self._ready.clear()
            self._dead = None
            env = dict(os.environ if self._env is None else self._env)
            self._proc = subprocess.Popen(
                [self._python, "-m", "checker.service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, bufsize=1, env=env, start_new_session=True)
            proc = self._proc
        threading.Thread(target=self._read_replies, args=(proc,), daemon=True, name="checker-replies").start()
        threading.Thread(target=self._read_stderr, args=(proc,), daemon=True, name="checker-stderr").start()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """True once the worker has imported everything (False on timeout or if it died)."""
        return self._ready.wait(timeout) and self._dead is None

    @property
    def ready(self) -> bool:
        return self._ready.is_set() and self._dead is None

    def close(self) -> None:
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- checks -------------------------------------------------------------------------------
    def prepare(self, drill: str, framework: str, seed: int = 0) -> None:
        """Tell the worker a check of `drill` in `framework` is coming (a drill was opened): it forks
        that check's sandbox child ahead of time. No reply; nothing happens if the worker is not running."""
        message = json.dumps({"op": "prepare", "drill": drill, "framework": framework, "seed": seed})
        with self._lock:
            proc = self._proc
            if proc is None or proc.poll() is not None:
                return
            try:
                proc.stdin.write(message + "\n")
                proc.stdin.flush()
            except (OSError, ValueError, AttributeError):
                pass

    def check(self, source: str, drill: str | None = None, framework: str | None = None, seed: int = 0,
              timeout: float = 120.0):
        """Check `source`; returns a `checker.report.Report`. Raises `checker.answer_check.UsageError` when the
        drill or framework cannot be inferred and `CheckerUnavailable` when the worker is gone (the next
        call starts a fresh one)."""
        reply = self._send({"op": "check", "source": source, "drill": drill, "framework": framework,
                            "seed": seed}).result(timeout=timeout)
        if reply.get("ok"):
            from checker.report import report_from_json

            return report_from_json(reply["report"])
        if "usage" in reply:
            from checker.answer_check import UsageError

            raise UsageError(reply["usage"])
        if reply.get("cancelled"):
            raise CheckCancelled("superseded by a newer check")
        raise CheckerUnavailable(f"the checker failed: {reply.get('error')}")

    def wait_warm(self, timeout: float = 300.0) -> None:
        """Return once the worker has warmed every drill (it warms them one at a time between requests):
        what a caller timing warm checks waits for first. Raises `CheckerUnavailable` when the worker is
        gone."""
        self._send({"op": "warm"}).result(timeout=timeout)

    def cancel_running(self) -> None:
        """Abandon every check sent and not yet answered: the one the worker is running has its
        candidate's process killed, the ones still queued (sent while the worker warmed up or was busy)
        are answered without running, and each caller gets `CheckCancelled`. The app calls this when a
        new run supersedes the last."""
        with self._lock:
            proc, ids = self._proc, sorted(self._pending)
            if not ids or proc is None or proc.poll() is not None:
                return
            try:  # first the ids, so that a check the signal misses is still known to be abandoned
                proc.stdin.write(json.dumps({"op": "cancel", "ids": ids}) + "\n")
                proc.stdin.flush()
            except (OSError, ValueError, AttributeError):
                return
        if not self._ready.is_set():  # nothing runs before the worker is ready, and until then the
            return                    # signal would end it (its handler is set just before "ready")
        try:
            os.kill(proc.pid, signal.SIGUSR1)
        except ProcessLookupError:
            pass

    # ---- plumbing -----------------------------------------------------------------------------
    def _send(self, request: dict) -> Future:
        """Send `request` with a fresh id (starting the worker if it is not running); the future of its
        reply. Raises `CheckerUnavailable` when the worker cannot take it."""
        if self._proc is None or self._proc.poll() is not None:
            self.start()
        request_id = next(self._ids)
        future: Future = Future()
        with self._lock:
            self._pending[request_id] = future
            proc = self._proc
            try:
                proc.stdin.write(json.dumps({"id": request_id, **request}) + "\n")
                proc.stdin.flush()
            except (OSError, ValueError, AttributeError):
                self._pending.pop(request_id, None)
                raise CheckerUnavailable(self._why()) from None
        return future

    def _why(self) -> str:
        tail = "\n".join(list(self._stderr)[-5:])
        return "the checker worker stopped" + (f":\n{tail}" if tail else "")

    def _read_replies(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            try:
                reply = json.loads(line)
            except json.JSONDecodeError:
                continue
            if reply.get("ready"):
                self._ready.set()
                continue
            future = self._pending.pop(reply.get("id"), None)
            if future is not None:
                future.set_result(reply)
        proc.wait()
        self._dead = self._why()
        self._ready.set()
        with self._lock:
            pending, self._pending = self._pending, {}
        for future in pending.values():
            future.set_exception(CheckerUnavailable(self._dead))

    def _read_stderr(self, proc: subprocess.Popen) -> None:
        for line in proc.stderr:
            self._stderr.append(line.rstrip())


# ---- the worker side --------------------------------------------------------------------------------

class _Cancelled(BaseException):
    """Raised in the worker by SIGUSR1 while a check runs (a BaseException, so no `except Exception` in
    the engine swallows it; the sandbox's `finally` still kills the candidate's processes)."""


_checking = False


def _on_cancel(signum, frame) -> None:
    if _checking:
        raise _Cancelled()


def serve(stdin=None, stdout=None) -> int:
    """Answer check requests until stdin closes."""
    from checker.sandbox import prepare_parent

    prepare_parent()  # torch.set_num_threads(1) before any tensor op, so forked children never hang
    from checker.answer_check import UsageError, run_check
    from checker.engine import Checker

    checker = Checker()

    global _checking
    signal.signal(signal.SIGUSR1, _on_cancel)
    out = stdout or os.fdopen(os.dup(1), "w", buffering=1)
    sys.stdout = sys.stderr  # nothing we import may write on the protocol channel
    inp = stdin or sys.stdin
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    # every drill warmed one at a time while no request waits: a check sent now waits for one drill's
    # warm-up at most, and a closed input ends the worker at the next drill
    inbox = _Inbox(inp, idle=lambda: _refresh_spare(checker), background=checker.warm_steps())
    cancelled: set = set()
    for line in inbox:
        req = _request(line)
        if req is None:
            continue
        if req.get("op") == "prepare":  # no reply: the spare for a drill that just opened
            _prepare(checker, req)
            continue
        if req.get("op") == "cancel":
            cancelled.update(_ids(req))
            continue
        if req.get("op") == "warm":  # the rest of the warm-up now, then the reply
            inbox.finish_background()
            out.write(json.dumps({"id": req.get("id"), "ok": True}) + "\n")
            out.flush()
            continue
        reply = {"id": req.get("id")}
        for line in inbox.waiting():  # a cancel sent after this check, already here (checks unparsed)
            waiting = _request(line) if '"cancel"' in line and '"source"' not in line else None
            if waiting is not None and waiting.get("op") == "cancel":
                cancelled.update(_ids(waiting))
        if req.get("id") in cancelled:
            cancelled.discard(req.get("id"))
            reply.update(ok=False, cancelled=True)
            out.write(json.dumps(reply) + "\n")
            out.flush()
            continue
        try:
            _checking = True
            try:
                report = run_check(checker, req["source"], req.get("drill"), req.get("framework"),
                                   int(req.get("seed") or 0))
            finally:
                _checking = False
            reply.update(ok=True, report=report.to_json())
        except _Cancelled:
            reply.update(ok=False, cancelled=True)
        except UsageError as exc:
            reply.update(ok=False, usage=str(exc))
        except Exception as exc:  # noqa: BLE001 - the worker reports and keeps serving
            reply.update(ok=False, error=f"{type(exc).__name__}: {exc}")
        out.write(json.dumps(reply) + "\n")
        out.flush()
        _keep_warm(checker)
    return 0


#: While idle, the worker replaces its spare sandbox child once it is this old (a spare is used only
#: while younger than `SPARE_MAX_AGE_S`).
SPARE_REFRESH_S = 30.0


def _keep_warm(checker) -> None:
    try:
        checker.keep_warm()
    except Exception as exc:  # noqa: BLE001 - a spare is an optimisation: the next check forks afresh
        print(f"checker worker: could not fork a spare sandbox child: {type(exc).__name__}: {exc}",
              file=sys.stderr)


def _prepare(checker, req: dict) -> None:
    try:
        checker.prepare(str(req.get("drill")), str(req.get("framework")), int(req.get("seed") or 0))
    except Exception as exc:  # noqa: BLE001 - an unknown drill or a failed fork: the check forks afresh
        print(f"checker worker: could not prepare {req.get('drill')!r}: {type(exc).__name__}: {exc}",
              file=sys.stderr)


def _refresh_spare(checker) -> None:
    from checker.sandbox import spare_age

    age = spare_age()
    if age is not None and age >= SPARE_REFRESH_S:
        _keep_warm(checker)


def _request(line: str) -> dict | None:
    """A request line as a dict (None for a blank or unreadable line, which is skipped)."""
    if not line.strip():
        return None
    try:
        req = json.loads(line)
    except json.JSONDecodeError:
        return None
    return req if isinstance(req, dict) else None


def _ids(req: dict) -> list:
    ids = req.get("ids")
    return [i for i in ids if isinstance(i, (int, str))] if isinstance(ids, list) else []


_DONE = object()


class _Inbox:
    """The lines of the worker's input, one at a time, calling `idle()` whenever none has come for
    `SPARE_REFRESH_S` seconds; `waiting()` returns the lines already sent but not yet taken, without
    blocking (they are still taken in order). `background` (an iterator: the warm-up) is advanced one
    step whenever no line is waiting, until it is exhausted or the input closes. A stream without a file
    descriptor (tests) is read as it is, after the whole background, with no idle calls and nothing seen
    ahead."""

    def __init__(self, inp, idle, background: Iterator | None = None) -> None:
        self.inp, self.idle = inp, idle
        self.background = background
        self.pending = b""  # read from the descriptor itself: nothing else reads `inp`
        self.closed = False
        try:
            self.fd = inp.fileno()
        except (AttributeError, ValueError, OSError):
            self.fd = None

    def __iter__(self):
        import select

        if self.fd is None:
            self.finish_background()
            yield from self.inp
            return
        while True:
            if b"\n" not in self.pending:
                if self.closed:
                    if self.pending:
                        line, self.pending = self.pending, b""
                        yield line.decode("utf-8", errors="replace")
                    return
                if self.background is not None and not select.select([self.fd], [], [], 0)[0]:
                    if next(self.background, _DONE) is _DONE:
                        self.background = None
                    continue
                if not select.select([self.fd], [], [], SPARE_REFRESH_S)[0]:
                    self.idle()
                    continue
                self._read()
                continue
            line, self.pending = self.pending.split(b"\n", 1)
            yield line.decode("utf-8", errors="replace") + "\n"

    def finish_background(self) -> None:
        """The rest of the background, at once."""
        for _ in self.background or ():
            pass
        self.background = None

    def _read(self) -> None:
        data = os.read(self.fd, 1 << 16)
        if data:
            self.pending += data
        else:
            self.closed = True

    def waiting(self) -> list[str]:
        """The complete lines sent so far and not yet taken."""
        import select

        if self.fd is None:
            return []
        while not self.closed and select.select([self.fd], [], [], 0)[0]:
            self._read()
        return [line.decode("utf-8", errors="replace") for line in self.pending.split(b"\n")[:-1]]


if __name__ == "__main__":
    sys.exit(serve())

"""The zygote: the one process every sandboxed child is forked from (`zygote()`, `Zygote.fork`).

An answer runs in a copy of the process it was forked from, and no Python-level hiding keeps that copy's
memory from it (ctypes reaches every object). So that process must never have held what an answer could
use instead of computing: the reference core, a drill's model answer or hints, an expected result, the
implementations a test file is graded against. The trusted process (the checker worker, `ppo-drill
check`) holds all of these, so it never forks an answer itself: it starts a zygote, and asks it for each
child.

The zygote is made before any of that exists: forked from the trusted process when it has loaded nothing
of the checker's content (the CLI and the worker start it first thing: `start()`), else started as a fresh
interpreter (`python -m checker.sandbox.zygote`) that loads numpy, torch, the sandbox and the handed-over
objects (`checker.handouts`), and nothing else. It is told the calls' inputs (data the report shows
anyway: `checker.sandbox.calls`) and keeps the last few sets decoded, so its children start with their
inputs in memory; an answer's source and a test file's implementation under test go straight from the
trusted process to the child, and results straight back, on pipes the zygote only hands on.

Protocol, on a unix stream socket: a message is `u32 JSON length | u64 payload length | JSON | payload`,
descriptors travelling with it as SCM_RIGHTS.
  trusted -> zygote  {"op": "calls", "key": k} + a calls payload (kept decoded for the forks that name k)
                     {"op": "fork", "id": n, "key": k, "start": a, "stop": b, "function": f,
                      "limits": {...}} + the child's ends of its result, output and request pipes
  zygote -> trusted  {"forked": n, "pid": p} + a pidfd of the child, or {"failed": n, "error": "..."}
                     {"exit": p, "status": s, "cpu_s": c} once it has reaped p
The zygote dies with the trusted process (PR_SET_PDEATHSIG, and end of file on the socket), and every
child it forked dies with it.
"""
from __future__ import annotations

import array
import collections
import ctypes
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
from dataclasses import asdict

from checker.sandbox import pages
from checker.sandbox.model import Limits

_HEAD = struct.Struct("<IQ")
#: How many decoded call sets the zygote keeps (both sides evict the oldest alike).
KEEP_CALLS = 8
#: Modules whose presence means this process may hold what an answer must never read: the reference
#: core, the drills' examples and expected results, the catalogue's variants, the graders, the drills'
#: texts (hints and model answers). A process holding any of them starts its zygote afresh instead of
#: forking it.
_SECRET_MODULES = ("checker.reference", "checker.specs", "checker.catalogue", "checker.inputs", "checker.plan",
                   "checker.evaluation", "checker.shrinking", "checker.wording", "checker.diagnosis",
                   "checker.misconceptions", "checker.engine", "checker.trusted", "checker.testwriting",
                   "drills.catalog", "drills.model", "cards.decks")
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_NAME = 15
_libc = ctypes.CDLL(None, use_errno=True)


class ZygoteError(RuntimeError):
    """The zygote could not be started, or died and could not be started again."""


def holds_secrets() -> list[str]:
    """The loaded modules that make this process unfit to fork the zygote from (empty when it is fit)."""
    return sorted(name for name in sys.modules
                  if any(name == m or name.startswith(m + ".") for m in _SECRET_MODULES))


# ---------------------------------------------------------------------------------------- both sides

def _send(sock: socket.socket, header: dict, payload: bytes = b"", fds: tuple = ()) -> None:
    body = json.dumps(header, separators=(",", ":")).encode()
    first = _HEAD.pack(len(body), len(payload)) + body
    if fds:
        socket.send_fds(sock, [first], list(fds))
    else:
        sock.sendall(first)
    if payload:
        sock.sendall(payload)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        data = sock.recv(min(n - got, 1 << 20))
        if not data:
            raise EOFError("the zygote's socket closed")
        chunks.append(data)
        got += len(data)
    return b"".join(chunks)


def _recv(sock: socket.socket, max_fds: int = 4) -> tuple[dict, bytes, list[int]]:
    """One message: (header, payload, descriptors). Raises EOFError when the other side is gone."""
    fds = array.array("i")
    data, anc, _flags, _addr = sock.recvmsg(_HEAD.size, socket.CMSG_LEN(max_fds * fds.itemsize))
    for level, kind, cdata in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(cdata[:len(cdata) - (len(cdata) % fds.itemsize)])
    if not data:
        raise EOFError("the zygote's socket closed")
    if len(data) < _HEAD.size:
        data += _recv_exact(sock, _HEAD.size - len(data))
    hlen, plen = _HEAD.unpack(data)
    header = json.loads(_recv_exact(sock, hlen))
    payload = _recv_exact(sock, plen) if plen else b""
    return header, payload, list(fds)


# ---------------------------------------------------------------------------------------- trusted side

class Zygote:
    """The trusted process's handle on its zygote. One per process (`zygote()`); not thread-safe: the
    checker runs one check at a time."""

    def __init__(self) -> None:
        self.sock: socket.socket | None = None
        self.pid: int | None = None
        self.forked_from_here = False
        self.owner = os.getpid()
        self._sent: collections.OrderedDict[int, tuple[list, tuple, int]] = collections.OrderedDict()
        self._keys = 0
        self._ids = 0
        self._exits: dict[int, tuple[int, float]] = {}
        self._proc: subprocess.Popen | None = None
        self.children: list[int] = []  # every child pid it forked for this process, oldest first (tests)

    # ---- lifecycle
    def start(self, user: int | None = None) -> None:
        """Start the zygote: forked from this process if it holds nothing secret and runs one thread, else
        a fresh interpreter. `PPO_DRILL_ZYGOTE=fork` refuses the second way (tests of the start-up path),
        `=spawn` always takes it. `user`: a root process can have the zygote, and so every sandboxed
        child, run as this ordinary uid (it drops to it once warm): the sandbox then works as it does for
        that user."""
        if self.sock is not None:
            return
        mode = os.environ.get("PPO_DRILL_ZYGOTE", "")
        secrets = holds_secrets()
        fit = not secrets and threading.active_count() == 1
        if mode == "fork" and not fit:
            raise ZygoteError("the zygote cannot be forked from this process: it holds "
                              + (", ".join(secrets[:5]) if secrets else "more than one thread"))
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        if fit and mode != "spawn":
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the zygote, never returns
                try:
                    ours.close()
                    serve(theirs.fileno(), self.owner, user)
                finally:
                    os._exit(0)
            self.forked_from_here = True
        else:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", "from checker.sandbox.zygote import main; main()", str(theirs.fileno()),
                 str(os.getpid()), "" if user is None else str(user)], pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, env=_zygote_env())
            pid = self._proc.pid
            self.forked_from_here = False
        theirs.close()
        self.sock, self.pid = ours, pid
        self._sent.clear()
        self._exits.clear()
        try:
            header, _, _ = _recv(ours)
        except (EOFError, OSError) as exc:
            self.close()
            raise ZygoteError(f"the sandbox's zygote did not start ({exc})") from None
        if header.get("ready") is not True:
            self.close()
            raise ZygoteError(f"the sandbox's zygote did not start: {header.get('error', header)}")

    def close(self) -> None:
        sock, self.sock = self.sock, None
        if sock is not None:
            sock.close()  # end of file: the zygote exits
        pid, self.pid = self.pid, None
        if pid is not None and os.getpid() == self.owner:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self._proc = None

    # ---- requests
    def fork(self, function: str, calls: list, start: int, stop: int, limits: Limits) -> tuple[int, int, int, int, int]:
        """Fork a child that will run `calls[start:stop]` (its calls numbered from `start`) of `function`
        under `limits`. Returns (pid, pidfd, result pipe, output pipe, request pipe): the first two read
        ends and the write end the child reads its request from."""
        payload = self._payload(calls)  # before anything is sent: inputs that cannot cross are the caller's error
        for attempt in (0, 1):
            self.start()
            res_r, res_w = os.pipe2(os.O_CLOEXEC)
            out_r, out_w = os.pipe2(os.O_CLOEXEC)
            req_r, req_w = os.pipe2(os.O_CLOEXEC)
            try:
                key = self._ensure_calls(calls, payload)
                self._ids += 1
                _send(self.sock, {"op": "fork", "id": self._ids, "key": key, "start": start, "stop": stop,
                                  "function": function, "limits": asdict(limits)}, fds=(res_w, out_w, req_r))
                header, fds = self._await(lambda h: h.get("forked") == self._ids or h.get("failed") == self._ids)
            except (EOFError, OSError, ValueError) as exc:
                for fd in (res_r, out_r, req_w):
                    os.close(fd)
                self.close()
                if attempt:
                    raise ZygoteError(f"the sandbox's zygote stopped answering ({exc})") from None
                continue
            finally:
                for fd in (res_w, out_w, req_r):
                    os.close(fd)
            if "failed" in header:
                for fd in (res_r, out_r, req_w) + tuple(fds):
                    os.close(fd)
                if header.get("missing") and not attempt:  # our record and its store disagree: send again
                    self._sent.pop(id(calls), None)
                    payload = self._payload(calls)
                    continue
                raise OSError(f"the sandbox could not fork a child: {header.get('error')}")
            if len(fds) != 1 or type(header.get("pid")) is not int:
                for fd in (res_r, out_r, req_w) + tuple(fds):
                    os.close(fd)
                raise ZygoteError("the sandbox's zygote sent a malformed reply")
            self.children.append(header["pid"])
            del self.children[:-4096]
            return header["pid"], fds[0], res_r, out_r, req_w
        raise AssertionError("unreachable")

    def exit_status(self, pid: int, timeout: float = 2.0) -> tuple[int | None, float]:
        """(wait status, CPU seconds) of a child the zygote reaped, waiting up to `timeout` for it; (None, 0)
        when it does not come (the zygote is gone)."""
        if pid in self._exits:
            return self._exits.pop(pid)
        if self.sock is None:
            return None, 0.0
        try:
            self._await(lambda h: h.get("exit") == pid, timeout)
        except (EOFError, OSError, TimeoutError, ValueError):
            return None, 0.0
        return self._exits.pop(pid, (None, 0.0))

    def _held(self, calls: list) -> int | None:
        """The key under which the zygote holds these very calls (the same list, element for element)."""
        held = self._sent.get(id(calls))
        if held is not None and held[0] is calls and len(held[1]) == len(calls) \
                and all(a is b for a, b in zip(held[1], calls)):
            return held[2]
        return None

    def _payload(self, calls: list) -> bytes | None:
        """The calls encoded, or None where the zygote holds them already."""
        if self._held(calls) is not None:
            return None
        from checker.sandbox.calls import encode_calls

        return encode_calls(list(calls))

    def _ensure_calls(self, calls: list, payload: bytes | None) -> int:
        """The key under which the zygote holds `calls` decoded, sending them first where it does not."""
        key = self._held(calls)
        if key is not None:
            self._sent.move_to_end(id(calls))
            return key
        if payload is None:  # held when encoding was skipped, forgotten since (a restarted zygote)
            payload = self._payload(calls)
        self._keys += 1
        _send(self.sock, {"op": "calls", "key": self._keys}, payload)
        # holding the list keeps its id unique while it is here; its elements tell a list changed in place
        self._sent[id(calls)] = (calls, tuple(calls), self._keys)
        while len(self._sent) > KEEP_CALLS:
            self._sent.popitem(last=False)
        return self._keys

    def _await(self, wanted, timeout: float | None = None) -> tuple[dict, list[int]]:
        """Read messages until one `wanted(header)` accepts, keeping the exits that arrive meanwhile."""
        self.sock.settimeout(timeout)
        try:
            while True:
                header, _, fds = _recv(self.sock)
                if type(header.get("exit")) is int:
                    self._exits[header["exit"]] = (header.get("status"), float(header.get("cpu_s") or 0.0))
                    while len(self._exits) > 256:
                        self._exits.pop(next(iter(self._exits)))
                if wanted(header):
                    return header, fds
                for fd in fds:
                    os.close(fd)
        except socket.timeout:
            raise TimeoutError("no reply from the sandbox's zygote") from None
        finally:
            if self.sock is not None:
                self.sock.settimeout(None)


_zygote: Zygote | None = None


def zygote() -> Zygote:
    """This process's zygote handle (started on first use; a forked child of this process gets its own)."""
    global _zygote
    if _zygote is None or _zygote.owner != os.getpid():
        _zygote = Zygote()
    return _zygote


def start() -> None:
    """Start this process's zygote now, while it holds nothing secret (call it before loading drills or the
    checker's engine: the CLI and the worker call it first thing)."""
    from checker.sandbox.parent import prepare_parent

    prepare_parent()


def _forget_in_child() -> None:
    """In a process forked from one that had a zygote: that zygote is its parent's; drop the handle
    without touching it (a new one starts on first use)."""
    global _zygote
    if _zygote is not None and _zygote.owner != os.getpid():
        if _zygote.sock is not None:
            try:
                os.close(_zygote.sock.detach())
            except OSError:
                pass
        _zygote = None


os.register_at_fork(after_in_child=_forget_in_child)


def _zygote_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "HOME",
                                                         "PYTHONPATH", "VIRTUAL_ENV", "TMPDIR",
                                                         "PYTHONDONTWRITEBYTECODE")}
    # the modules the trusted process imports, from where it imports them (a checkout run with -m, a copy
    # of the tree), and never the current folder: a user's file named like a module is not imported
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in sys.path if p)
    env["PYTHONSAFEPATH"] = "1"
    return env


# ---------------------------------------------------------------------------------------- zygote side

def main() -> None:
    """Entry point of a zygote started as a fresh interpreter: `main()` with argv [socket fd, trusted pid,
    the uid to run as or ""]."""
    fd, trusted = int(sys.argv[1]), int(sys.argv[2])
    user = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
    try:
        from checker.sandbox.parent import warm_process

        warm_process()
    except BaseException as exc:  # noqa: BLE001 - said to the trusted process, which reports it
        sock = socket.socket(fileno=fd)
        _send(sock, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        os._exit(1)
    serve(fd, trusted, user)


def serve(fd: int, trusted: int, user: int | None = None) -> None:
    """The zygote's loop: answer requests on the socket `fd` until it closes (as `user`, where given). Never
    returns."""
    if user is not None:
        # what the loop and each child load later, loaded now: the uid may not be able to read the checkout
        import checker.sandbox.calls  # noqa: F401
        import checker.sandbox.child  # noqa: F401
        os.setgroups([])
        os.setresgid(user, user, user)
        os.setresuid(user, user, user)
        _libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)  # as a process the user started is
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # after the uid change, which clears it
    if os.getppid() != trusted:
        os._exit(0)
    _libc.prctl(_PR_SET_NAME, ctypes.c_char_p(b"ppo-drill-zygote"), 0, 0, 0)
    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # the terminal's and the worker's signals are the trusted process's
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    keep = os.dup(fd)
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    for other in range(3, 1 << 16):  # nothing of the trusted process's but the socket
        if other not in (keep, wake_r, wake_w, 2):
            try:
                os.close(other)
            except OSError:
                pass
    sock = socket.socket(fileno=keep)
    signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    calls: collections.OrderedDict[int, list] = collections.OrderedDict()
    _send(sock, {"ready": True})
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    poller.register(wake_r, select.POLLIN)
    me = os.getpid()
    to_collapse = pages.slices()  # huge pages make each fork cheap: collapsed a slice at a time while idle
    while True:
        _reap(sock)
        try:
            events = poller.poll(0 if to_collapse else None)
        except InterruptedError:
            continue
        if not events and to_collapse:
            pages.collapse(*to_collapse.pop())
            continue
        for fd_ready, _ in events:
            if fd_ready == wake_r:
                try:
                    while os.read(wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
                continue
            try:
                header, payload, fds = _recv(sock)
            except (EOFError, OSError, ValueError):
                os._exit(0)  # the trusted process is gone
            op = header.get("op")
            if op == "calls":
                from checker.sandbox.calls import CallsError, decode_calls

                try:
                    calls[header["key"]] = decode_calls(payload)
                except CallsError:
                    calls[header["key"]] = None
                while len(calls) > KEEP_CALLS:
                    calls.popitem(last=False)
            elif op == "fork":
                _fork_child(sock, header, fds, calls, me)
            else:
                for f in fds:
                    os.close(f)


def _fork_child(sock, header: dict, fds: list[int], calls: collections.OrderedDict, me: int) -> None:
    request_id = header.get("id")
    held = calls.get(header.get("key"))
    if held is not None:
        calls.move_to_end(header["key"])  # kept as the trusted process keeps its record: least recently used goes
    if held is None:
        for f in fds:
            os.close(f)
        _send(sock, {"failed": request_id, "missing": True, "error": "no such calls"})
        return
    try:
        if len(fds) != 3:
            raise ValueError("the pipes did not arrive")
        start, stop = int(header["start"]), int(header["stop"])
        limits = Limits(**header["limits"])
        function = str(header["function"])
        pid = os.fork()
    except (ValueError, TypeError, KeyError, OSError) as exc:
        for f in fds:
            os.close(f)
        _send(sock, {"failed": request_id, "error": f"{type(exc).__name__}: {exc}"})
        return
    if pid == 0:  # pragma: no cover - the sandboxed child, never returns
        try:
            from checker.sandbox.child import child_main

            child_main(function, held[start:stop], start, limits, fds, me)
        finally:
            os._exit(99)
    for f in fds:
        os.close(f)
    try:
        pidfd = os.pidfd_open(pid)
    except OSError as exc:
        _send(sock, {"failed": request_id, "error": f"pidfd_open: {exc}"})
        return
    try:
        _send(sock, {"forked": request_id, "pid": pid}, fds=(pidfd,))
    finally:
        os.close(pidfd)


def _reap(sock) -> None:
    """Reap every child that has ended and tell the trusted process its status and CPU time."""
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        try:
            _send(sock, {"exit": pid, "status": status, "cpu_s": usage.ru_utime + usage.ru_stime})
        except OSError:
            os._exit(0)


if __name__ == "__main__":
    main()

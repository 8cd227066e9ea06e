"""Turning how a sandboxed run ended into a `SandboxError` a candidate can read.

The inputs are facts the parent observed itself (deadline passed, output flood, exit status,
resource usage) and the child's error frame, whose fields are treated as untrusted text.
"""
from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field

from checker.sandbox.imports import TEST_FILE_IMPORTS, allowed_imports_text
from checker.sandbox.model import ERROR_KINDS, Limits, SandboxError
from checker.sandbox.text import visible

_SIGNAL_WORDS = {
    signal.SIGSEGV: "a segmentation fault (SIGSEGV)",
    signal.SIGBUS: "a bus error (SIGBUS)",
    signal.SIGABRT: "an abort (SIGABRT)",
    signal.SIGFPE: "a floating-point exception (SIGFPE)",
    signal.SIGILL: "an illegal instruction (SIGILL)",
}


#: what OpenMP and OpenBLAS print just before they end a process that could not start a thread
_THREAD_FAILURES = (b"libgomp: Thread creation failed", b"pthread_create failed", b"Thread creation failed")


@dataclass
class Ending:
    """What the parent saw at the end of a run."""
    reason: str | None = None          # "timeout" | "output" | "result-size" | "malformed" | None
    reason_detail: str = ""
    terminal: dict | None = None       # the child's "done" or "error" header, if it arrived
    hello: bool = False
    calls_done: int = 0
    loaded: bool = False               # the signature frame arrived (module imported, function found)
    status: int | None = None          # waitpid status
    cpu_s: float = 0.0                 # child's user+system CPU time
    output: bytes = b""                # what the child printed (the kept part)
    notes: list[str] = field(default_factory=list)


def _where(end: Ending) -> str:
    if not end.loaded:
        return " while your module was loading"
    return f" during call {end.calls_done + 1}"


def _clip(text, limit: int = 300) -> str:
    """Untrusted text from the child's error frame, cut to `limit` and made safe to show."""
    text = str(text) if text is not None else ""
    return visible(text if len(text) <= limit else text[:limit] + "...")


def _line(v) -> int | None:
    return v if type(v) is int and v > 0 else None


def _call_index(v, end: Ending) -> int | None:
    return v if type(v) is int and v >= 0 else (end.calls_done if end.loaded else None)


def classify(end: Ending, limits: Limits, filename: str) -> SandboxError | None:
    """The run's error, or None when it finished with every call reported."""
    if end.reason == "timeout":
        return SandboxError("timeout", f"Your code was still running after {limits.wall_s:g} s (the time "
                            f"limit){_where(end)} and was stopped. Look for a loop that never ends "
                            "or a call that blocks.", call_index=end.calls_done if end.loaded else None)
    if end.reason == "output":
        return SandboxError("output", f"Your code printed more than {limits.output_kill_bytes // 1024} KiB "
                            f"of output{_where(end)} and was stopped. Remove the prints from loops.",
                            call_index=end.calls_done if end.loaded else None)
    if end.reason == "result-size":
        return SandboxError("output", f"Your function returned more than "
                            f"{limits.max_result_bytes // (1024 * 1024)} MiB of data{_where(end)}. "
                            "Return only what the task asks for.",
                            call_index=end.calls_done if end.loaded else None)
    if end.reason == "malformed":
        return SandboxError("crash", "The answer's process sent back a result the checker could not "
                            f"read ({_clip(end.reason_detail, 120)}), so it was rejected.",
                            call_index=end.calls_done if end.loaded else None)
    t = end.terminal
    if t is not None and t.get("type") == "done":
        return None
    if t is not None and t.get("type") == "error":
        return _from_error_frame(t, end, limits, filename)
    return _from_status(end, limits)


def _from_error_frame(t: dict, end: Ending, limits: Limits, filename: str) -> SandboxError:
    kind = t.get("kind") if t.get("kind") in ERROR_KINDS else "exception"
    exc_type = _clip(t.get("exc_type"), 80) or None
    exc_msg = _clip(t.get("exc_message"))
    line = _line(t.get("line"))
    detail = _clip(t.get("detail"), 3000)
    at = f" at line {line} of {filename}" if line else ""
    index = _call_index(t.get("call_index"), end)
    stage = t.get("stage")
    where = " while your module was loading" if stage in ("import", "compile") else (
        f" in call {index + 1}" if index is not None else "")
    if kind == "syntax":
        msg = f"{filename} is not valid Python: {exc_msg}" + (f" (line {line})." if line else ".")
        return SandboxError("syntax", msg, line, detail, None, exc_type)
    if kind == "missing-function":
        name = _clip(t.get("function"), 80)
        defined = t.get("defined") if isinstance(t.get("defined"), list) else []
        found = _clip(t.get("found_type"), 80)
        msg = f"{filename} defines no function named `{name}`."
        if found:
            msg = f"In {filename}, `{name}` is a {found}, not a function."
        elif defined:
            msg += " It defines: " + ", ".join(_clip(d, 60) for d in defined[:10]) + "."
        return SandboxError("missing-function", msg)
    if kind == "memory":
        msg = (f"Your code ran out of memory{where}{at} (it may use {limits.memory_mb} MB beyond the "
               f"checker's own): {exc_type}: {exc_msg}")
        return SandboxError("memory", msg, line, detail, index, exc_type)
    if kind == "crash":
        if exc_type == "SystemExit":
            msg = (f"Your code called sys.exit({exc_msg}){where}{at}; a function must return its "
                   "result instead of ending the program.")
        else:
            msg = f"The sandbox could not run your code: {exc_type}: {exc_msg}"
        return SandboxError("crash", msg, line, detail, index, exc_type)
    msg = f"Your code raised {exc_type}{where}{at}: {exc_msg}"
    if "Too many open files" in exc_msg:
        code = _failing_code(detail)
        if not code.startswith(("import ", "from ")):  # a library that failed inside its own import machinery
            code = next((c for c in reversed(_code_lines(detail)) if c.startswith(("import ", "from "))), code)
        if code.startswith(("import ", "from ")):
            msg = (f"`{_clip(code, 80)}`{at} imports a module the checker has not loaded. The sandbox "
                   "cannot open files, so an answer may import only what is already loaded: "
                   f"{allowed_imports_text()} (and a test file: {', '.join(TEST_FILE_IMPORTS)}). "
                   "Other libraries (tensordict, einops, scipy, ...) are not available: write the "
                   "function with those.")
        else:
            msg += " (the sandbox lets an answer open no files or sockets)"
    elif "can't start new thread" in exc_msg:
        msg += f" (the sandbox lets an answer start at most {limits.max_processes} processes and threads)"
    return SandboxError("exception", msg, line, detail, index, exc_type)


def _code_lines(detail: str) -> list[str]:
    """The source lines of every frame in a detail traceback, outermost first."""
    lines = detail.splitlines()
    return [lines[i].strip() for i in range(1, len(lines))
            if lines[i - 1].lstrip().startswith("File ") and lines[i].startswith("    ")]


def _failing_code(detail: str) -> str:
    """The source line of the deepest frame in a detail traceback ('' when there is none)."""
    lines = detail.splitlines()
    for i in range(len(lines) - 1, 0, -1):
        if lines[i - 1].lstrip().startswith("File ") and lines[i].startswith("    "):
            return lines[i].strip()
    return ""


def _from_status(end: Ending, limits: Limits) -> SandboxError:
    index = end.calls_done if end.loaded else None
    status = end.status
    if not end.hello:
        why = "" if status is None else f" ({_describe_status(status)})"
        return SandboxError("crash", f"The sandbox failed to start{why}.", call_index=index)
    if status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        # RLIMIT_CPU kills at the limit; CPU accounting is tick-based, so allow it to read a bit less.
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL and end.cpu_s >= 0.9 * limits.cpu_s):
            return SandboxError("timeout", f"Your code used more than {limits.cpu_s} s of CPU time"
                                f"{_where(end)} and was stopped. Look for a loop that never ends.",
                                call_index=index)
        if sig == signal.SIGKILL:
            return SandboxError("memory", f"Your code was killed by the system{_where(end)} (SIGKILL), "
                                "most likely for using too much memory.", call_index=index)
        words = _SIGNAL_WORDS.get(sig, _describe_status(status))  # type: ignore[call-overload]
        return SandboxError("crash", f"Your code crashed the process with {words}{_where(end)}. "
                            "This happens with ctypes, unsafe native code or recursion deep enough to "
                            "overflow the C stack.", call_index=index)
    code = os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else None
    threads = next((m for m in _THREAD_FAILURES if m in end.output), None)
    if threads is not None:
        return SandboxError("crash", f"A library your code called could not start its threads{_where(end)} "
                            f"(it printed \"{threads.decode()}\") and ended the process. The sandbox runs "
                            "every answer on one thread and caps the processes it may start; remove "
                            "what sets a thread count (torch._C.set_num_threads, threadpoolctl) "
                            "from your code.", call_index=index)
    how = f"with exit status {code}" if code is not None else "unexpectedly"
    return SandboxError("crash", f"Your code ended the process {how}{_where(end)} before returning a "
                        "result (os._exit, or closing the sandbox's pipe?). A function must return.",
                        call_index=index)


def _describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        try:
            return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
        except ValueError:
            return f"signal {os.WTERMSIG(status)}"
    if os.WIFEXITED(status):
        return f"exit status {os.WEXITSTATUS(status)}"
    return f"status {status}"

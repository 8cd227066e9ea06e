"""What the sandboxed child does: confine itself, wait for the candidate's source, load it as a module,
call the function and stream one frame per step back to the trusted process (hello, signature, one per
call, then done or error).

The child is forked from the zygote (zygote.py), which holds the calls' inputs and nothing of the checker
but the sandbox; `isolation.confine` makes it a keeper and the answer's process, where the rest of this
module runs. The source (and for a test file, the implementation under test) arrives on stdin (fd 0),
sent by the trusted process once the child is confined, so that a child can be forked and confined ahead
of time, before the answer exists (a spare: see runner.py). Stdin is then at end of file for the answer,
as /dev/null would be.

Everything here runs in the child and ends in `os._exit`; it never returns into the zygote's code.
The candidate's code can tamper with this module once it runs, which is why the parent trusts
only the hello frame (sent before any candidate code) and validates everything else as data.
"""
from __future__ import annotations

import gc
import inspect
import io
import linecache
import os
import sys
import time
import traceback
import types

from checker.sandbox.eager import install_eager_only_compiler
from checker.sandbox.frames import Encoder, pack_frame, write_all
from checker.sandbox.isolation import RESULT_FD, confine

MODULE_NAME = "__answer__"
_MEMORY_MARKERS = ("DefaultCPUAllocator", "can't allocate memory", "not enough memory",
                   "Cannot allocate memory", "out of memory")


_sender = 0  # the pid of the answer's process: only it reports (see _send)


def child_main(function, calls, offset, limits, fds, zygote_pid) -> None:
    """Entry point right after the zygote's fork. Never returns. `calls`: this child's slice of the run's
    calls, the first of which is call `offset` of the run; `fds`: the child's ends of its result, output
    and request pipes."""
    global _sender
    code = 0
    filename = "answer.py"  # until the request names it
    try:
        t0 = time.perf_counter()
        # Everything inherited from the zygote is put out of the collector's reach: a finaliser of an
        # object that was garbage at fork time must not close a descriptor number the child reuses (fd 3
        # is the result pipe), and not scanning the inherited heap saves copy-on-write.
        gc.freeze()
        notes, facts = confine(fds, limits, zygote_pid)
        _sender = os.getpid()
        torch = sys.modules.get("torch")
        if torch is not None:
            _keep_one_thread(torch)
            _eager_only_compiler(torch)
            _no_distributed_tensors(torch)
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        setup_ms = (time.perf_counter() - t0) * 1e3
        _send({"type": "hello", "notes": notes, "facts": facts, "setup_ms": setup_ms, "started": t0})
        request = _receive()
        if request is None:  # the parent discarded this child without a source: nothing to run
            os._exit(0)
        source, filename, preload = request
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        _run(source, function, calls, filename, preload, offset)
    except BaseException as exc:  # noqa: BLE001 - everything becomes a report, nothing escapes
        code = 1
        if not _sender:  # a failure while confining: this process reports it (the answer never ran)
            _sender = os.getpid()
        try:
            _send_error(exc, filename, None, stage="setup")
        except BaseException:  # noqa: BLE001
            code = 2
    finally:
        os._exit(code)


def _receive() -> tuple[str, str, tuple] | None:
    """The source, file name and preloaded modules the parent sends on fd 0 (JSON, then end of file);
    None when the parent closed the pipe without sending anything. Read before any candidate code
    runs, from the trusted parent."""
    import json

    chunks = []
    while True:
        data = os.read(0, 1 << 16)
        if not data:
            break
        chunks.append(data)
    if not chunks:
        return None
    request = json.loads(b"".join(chunks))
    preload = tuple((str(n), str(t), str(f)) for n, t, f in request.get("preload", ()))
    return request["source"], request["filename"], preload


def _keep_one_thread(torch) -> None:
    """One torch thread, and `torch.set_num_threads(n)` from the answer leaves it so.

    The sandbox caps the processes (threads count) the answer may start, and in a pid namespace no
    thread can start at all; libgomp asked for 64 threads would end the process ("Thread creation
    failed"), failing a right answer for a reason that has nothing to do with it. The answer's
    results do not depend on the thread count, so its request is accepted and ignored.
    """
    torch.set_num_threads(1)

    def set_num_threads(n: int) -> None:
        """Accepted and ignored: the checker runs every answer on one thread."""
        int(n)

    def set_num_interop_threads(n: int) -> None:
        """Accepted and ignored: the checker runs every answer on one thread."""
        int(n)

    torch.set_num_threads = set_num_threads
    torch.set_num_interop_threads = set_num_interop_threads


def _eager_only_compiler(torch) -> None:
    """`torch.compile` refused with its reason, and the eager-only stand-in for `torch._dynamo` in place
    where the parent has not loaded the real one (`checker.sandbox.eager`): an optimiser steps as it
    would anywhere else, without opening the hundreds of files the real compiler needs."""
    def compile(*args, **kwargs):
        raise RuntimeError("torch.compile cannot run in the checker's sandbox (it needs to open files and "
                           "start compilers); run the function eagerly")

    torch.compile = compile  # refused even where the parent loaded the compiler: it would open files
    install_eager_only_compiler(torch)


def _no_distributed_tensors(torch) -> None:
    """`torch.testing.assert_close` imports torch.distributed.tensor (~500 modules) on every call, to
    check whether its arguments are DTensors. Where that module is not loaded no DTensor can exist,
    so the check is skipped, exactly as on a build without torch.distributed."""
    comparison = sys.modules.get("torch.testing._comparison")
    if comparison is not None and "torch.distributed.tensor" not in sys.modules:
        comparison._HAS_DTENSOR = False  # type: ignore[attr-defined]


def _send(header: dict, blobs=None) -> None:
    """Write one frame now. Frames are not batched: when a call hangs or crashes, the parent must
    already hold every earlier result, so that it can say which call failed (batching saved ~2 ms
    per 200 calls; not worth a wrong "during call N").

    A process the answer forked that returns from `os.fork()` and carries on runs this code too; it
    ends here instead of writing, so that results come from one process only (the answer could still
    write its own bytes to the pipe, as it could without forking: see docs/isolation.md)."""
    if os.getpid() != _sender:
        os._exit(0)
    write_all(RESULT_FD, pack_frame(header, blobs))


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - the candidate may have replaced or closed it
            pass


def _preload(modules) -> None:
    """Create the trusted modules the answer may import (name, source, filename), before it runs."""
    for name, text, fname in modules:
        mod = types.ModuleType(name)
        mod.__file__ = fname
        sys.modules[name] = mod
        exec(compile(text, fname, "exec", dont_inherit=True), mod.__dict__)


def _resolve(module, function):
    """`function` names a function of the answer, or `module:attr` of a preloaded module, which is
    then called with the answer's module first (a harness that runs what the answer defines)."""
    if ":" not in function:
        return module.__dict__.get(function)
    mod_name, attr = function.split(":", 1)
    runner = sys.modules[mod_name].__dict__[attr]

    def call(*args, **kwargs):
        return runner(module, *args, **kwargs)
    return call


def _run(source, function, calls, filename, preload=(), offset: int = 0) -> None:
    """Load the answer and make the calls (numbered from `offset`). A later slice of a run loads the
    module with its prints discarded: the first slice already shows what loading printed."""
    t0 = time.perf_counter()
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        _send({"type": "error", "kind": "syntax", "exc_type": type(exc).__name__,
               "exc_message": str(exc.msg or exc), "line": exc.lineno,
               "detail": "".join(traceback.format_exception_only(type(exc), exc))[-2000:]})
        return
    except (ValueError, MemoryError, RecursionError) as exc:  # null bytes, absurd nesting
        _send_error(exc, filename, None, stage="compile")
        return
    module = types.ModuleType(MODULE_NAME)
    module.__file__ = filename
    sys.modules[MODULE_NAME] = module
    try:
        _preload(preload)
    except BaseException as exc:  # noqa: BLE001 - our own module failed: a setup error
        _send_error(exc, filename, None, stage="setup")
        return
    streams, sink = (sys.stdout, sys.stderr), io.StringIO()
    if offset:
        sys.stdout = sys.stderr = sink
        _warnings_as_frames()
    try:
        exec(code, module.__dict__)
    except BaseException as exc:  # noqa: BLE001
        sys.stdout, sys.stderr = streams
        _send_error(exc, filename, None, stage="import")
        return
    if sys.stdout is sink:
        sys.stdout = streams[0]
    if sys.stderr is sink:
        sys.stderr = streams[1]
    fn = _resolve(module, function)
    if not callable(fn):
        defined = sorted(name for name, v in module.__dict__.items()
                         if isinstance(v, types.FunctionType) and not name.startswith("__"))
        _send({"type": "error", "kind": "missing-function", "function": function,
               "defined": defined[:20], "found_type": None if fn is None else type(fn).__name__})
        return
    params, param_names = _signature(fn)
    _send({"type": "signature", "params": params, "load_ms": (time.perf_counter() - t0) * 1e3})
    t1 = time.perf_counter()
    shared = _shared_ids(calls)
    for index, call in enumerate(calls, offset):
        t_call = time.perf_counter()
        args, kwargs, named = _fresh_inputs(call, param_names, shared)
        try:
            out = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001
            if call.expect_error and isinstance(exc, Exception) and _memory_kind(exc) is None:
                _send({"type": "call", "index": index, "ok": False,
                       "error": {"type": type(exc).__name__, "message": _text(exc),
                                 "line": _candidate_line(exc, filename)}})
                continue
            _flush()
            _send_error(exc, filename, index, stage="call")
            return
        enc = Encoder()
        try:
            value = enc.encode(out)
            grads, grad_error = (_backprop(out, call, named, enc) if call.grad_of is not None
                                 else ({}, None))
        except BaseException as exc:  # noqa: BLE001 - e.g. MemoryError copying a huge result
            _flush()
            _send_error(exc, filename, index, stage="result")
            return
        _send({"type": "call", "index": index, "ok": True, "value": value, "grads": grads,
               "grad_error": grad_error, "ms": (time.perf_counter() - t_call) * 1e3}, enc.blobs)
    _flush()
    _send({"type": "done", "calls_ms": (time.perf_counter() - t1) * 1e3})


def _warnings_as_frames() -> None:
    """In a later slice of a run, send each warning to the parent instead of printing it: a single
    child prints a warning once per place, so the parent shows it only if the earlier slices did not.
    Only warnings that would be printed are sent (where the process records them instead, as under a
    test runner, that stays as it is)."""
    import warnings

    impl = getattr(warnings, "_showwarnmsg_impl", None)
    if getattr(impl, "__module__", None) != "warnings" or getattr(impl, "__name__", "") != "_showwarnmsg_impl":
        return

    def send(msg):
        try:
            text = warnings._formatwarnmsg(msg)
        except Exception:  # noqa: BLE001 - a warning whose text cannot be made is dropped
            return
        if msg.file is not None:  # written to a file the answer chose: as in any slice
            impl(msg)
            return
        _send({"type": "warning", "text": str(text)[:2000]})

    warnings._showwarnmsg_impl = send  # type: ignore[attr-defined]


def _signature(fn) -> tuple[list[dict] | None, list[str]]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None, []
    params, names = [], []
    for p in sig.parameters.values():
        has_default = p.default is not inspect.Parameter.empty
        default = p.default if has_default else None
        if has_default and not (default is None or type(default) in (bool, int, float, str)):
            default = _safe_repr(default)
        if type(default) is float and default != default:
            default = "nan"
        params.append({"name": p.name, "kind": p.kind.name, "default": default,
                       "has_default": has_default})
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
    return params, names


def _shared_ids(calls) -> set[int]:
    """ids of input objects that appear in more than one place across the calls.

    The child's inputs are already private copies (fork), so an object used once is handed over
    as it is; only an object used twice needs a fresh copy at each use, or a call that mutates its
    input would change what a later call sees. Copying only those saves ~5 us per tensor per call.
    """
    seen: set[int] = set()
    shared: set[int] = set()

    def walk(value) -> None:
        if isinstance(value, (tuple, list)):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif not isinstance(value, (int, float, str, bool, type(None))):
            (shared if id(value) in seen else seen).add(id(value))

    for call in calls:
        walk(call.args)
        walk(call.kwargs)
    return shared


def _prepare(value, shared: set[int], requires_grad: bool = False):
    """The object a call receives: the private original, or a copy when the original is shared."""
    np = sys.modules.get("numpy")
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        if id(value) in shared or not value.is_leaf or value._base is not None:
            value = value.detach().clone().requires_grad_(value.requires_grad)
        value.grad = None
        if requires_grad and not value.requires_grad:
            value.requires_grad_(True)
        return value
    if np is not None and isinstance(value, np.ndarray):
        return value.copy() if id(value) in shared or value.base is not None else value
    if isinstance(value, tuple):
        return tuple(_prepare(v, shared) for v in value)
    if isinstance(value, list):
        return [_prepare(v, shared) for v in value]
    if isinstance(value, dict):
        return {k: _prepare(v, shared) for k, v in value.items()}
    return value


def _fresh_inputs(call, param_names, shared):
    wrt = set(call.grad_wrt)
    named = {}
    args = []
    for i, a in enumerate(call.args):
        names = [f"arg{i}"] + ([param_names[i]] if i < len(param_names) else [])
        fresh = _prepare(a, shared, requires_grad=bool(wrt.intersection(names)))
        for n in names:
            named[n] = fresh
        args.append(fresh)
    kwargs = {}
    for k, a in call.kwargs.items():
        kwargs[k] = named[k] = _prepare(a, shared, requires_grad=k in wrt)
    return args, kwargs, named


def _backprop(out, call, named, enc: Encoder):
    torch = sys.modules.get("torch")
    grads = {name: {"t": "none"} for name in call.grad_wrt}
    target = out
    try:
        for part in [p for p in call.grad_of.split(".") if p != ""]:
            target = target[part] if isinstance(target, dict) else target[int(part)]
    except (LookupError, ValueError, TypeError):
        return grads, f"the output has no element at {call.grad_of!r}"
    if torch is None or not isinstance(target, torch.Tensor):
        return grads, f"the output at {call.grad_of!r} is a {type(target).__name__}, not a tensor"
    if not target.requires_grad:
        return grads, f"the output at {call.grad_of!r} does not require grad (no grad_fn)"
    try:
        (target if target.dim() == 0 else target.sum()).backward()
    except Exception as exc:  # noqa: BLE001 - reported, the value is still useful
        return grads, f"backward() failed: {type(exc).__name__}: {_text(exc)}"
    for name in call.grad_wrt:
        t = named.get(name)
        if isinstance(t, torch.Tensor) and t.grad is not None:
            grads[name] = enc.encode(t.grad)
    return grads, None


def _text(exc: BaseException, limit: int = 500) -> str:
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001
        text = "<unprintable message>"
    return text[:limit]


def _safe_repr(value, limit: int = 200) -> str:
    try:
        return repr(value)[:limit]
    except BaseException:  # noqa: BLE001
        return f"<{type(value).__name__}>"


def _candidate_frames(exc: BaseException, filename: str):
    tb = exc.__traceback__
    frames = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            frames.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def _candidate_line(exc: BaseException, filename: str) -> int | None:
    frames = _candidate_frames(exc, filename)
    return frames[-1][1] if frames else None


def _memory_kind(exc: BaseException) -> str | None:
    if isinstance(exc, MemoryError):
        return "memory"
    if isinstance(exc, RuntimeError) and any(m in _text(exc, 2000) for m in _MEMORY_MARKERS):
        return "memory"
    return None


def _send_error(exc: BaseException, filename: str, index: int | None, stage: str) -> None:
    frames = _candidate_frames(exc, filename)
    detail_lines = []
    for name, lineno in frames[-8:]:
        text = linecache.getline(filename, lineno).strip()
        detail_lines.append(f'  File "{filename}", line {lineno}, in {name}\n    {text}\n')
    detail_lines.append(f"{type(exc).__name__}: {_text(exc)}\n")
    if isinstance(exc, SystemExit):
        kind = "crash"
    else:
        kind = _memory_kind(exc) or "exception"
    if stage == "setup":
        kind = "crash"
    _send({"type": "error", "kind": kind, "stage": stage, "call_index": index,
           "exc_type": type(exc).__name__, "exc_message": _text(exc),
           "line": frames[-1][1] if frames else None, "detail": "".join(detail_lines)[-3000:]})

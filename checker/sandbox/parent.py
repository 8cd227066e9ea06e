"""Preparing the trusted process for sandboxed runs: `prepare_parent`, and the zygote's own warm-up.

Every child is forked from the zygote (zygote.py), so what the child cannot do once confined (open files,
start threads) the zygote does first: `warm_process` imports numpy, torch and every module an answer may
import, and runs the few small ops whose lazy set-up opens files. A zygote forked from the trusted process
gets this from it; one started afresh runs it itself.
"""
from __future__ import annotations

import ctypes
import os

from checker.sandbox.eager import install_eager_only_compiler
from checker.sandbox.imports import allowed_imports
from checker.sandbox.isolation import SANDBOX_UID_BASE
from checker.sandbox.sweep import sweep_orphans

_prepared = False

#: Modules loaded into the zygote so that an answer importing them does not need to open files
#: (the child may not open any: RLIMIT_NOFILE leaves no free descriptor): the list in imports.py.
PRELOADED_MODULES = allowed_imports()


def prepare_parent() -> None:
    """Make this process ready to run sandboxed checks: warm (`warm_process`), with orphans of a dead
    checker cleared (root), and its zygote started. Idempotent; call it first thing, before loading
    drills or the checker's engine, so that the zygote can be forked from this process instead of
    started afresh (zygote.py)."""
    global _prepared
    if _prepared:
        from checker.sandbox.zygote import zygote

        zygote().start()  # a no-op while it lives; again after it died, or in a forked child of this process
        return
    warm_process()
    if os.geteuid() == 0:
        sweep_orphans(SANDBOX_UID_BASE)  # what a checker that died mid-check could not clear up
    from checker.sandbox.zygote import zygote

    zygote().start()
    _prepared = True


def warm_process() -> None:
    """Load and warm what a sandboxed child inherits, in this process.

    Sets torch to one thread before any tensor op (a process that entered an OpenMP parallel region
    makes forked children hang on their next large op), puts the eager-only stand-in for torch's
    compiler in place (`checker.sandbox.eager`), preloads the modules an answer may import and the
    objects a drill hands one (`checker.handouts`), and runs a few small single-threaded ops so lazy
    initialisation that opens files (torch's cpuinfo, numpy's random) has happened before a child, which
    cannot open files, needs it.
    """
    import importlib

    import torch
    torch.set_num_threads(1)
    install_eager_only_compiler(torch)  # the catalogue's optimiser loops run here too
    _single_threaded_openblas()
    for name in PRELOADED_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    import checker.handouts  # noqa: F401 - what a drill hands an answer, rebuilt in the zygote
    import numpy as np
    a = torch.ones(300, 300, requires_grad=True)
    (a @ a).sum().backward()
    torch.nn.functional.softmax(a.detach(), dim=-1)
    with torch.autograd.profiler.record_function("warm-up"):  # what an optimiser's zero_grad and step
        pass  # enter: it looks for an optional profiler module once (and logs an error where it cannot)
    x = np.random.default_rng(0).random((200, 200))
    np.linalg.inv(x @ x.T + np.eye(200))


def _single_threaded_openblas() -> None:
    """Set numpy's OpenBLAS to one thread, as torch is set, so that a child never starts BLAS threads.

    A forked child has none of the parent's BLAS threads and would start its own on the first large
    matmul; in a child that unshared a pid namespace (the ordinary-user sandbox) thread creation
    fails and OpenBLAS then waits forever. OpenBLAS has no Python API, so the setter is looked up in
    the library numpy loaded (its name carries the build's symbol suffix).
    """
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line}
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads_64_",
                     "scipy_openblas_set_num_threads", "openblas_set_num_threads64_",
                     "openblas_set_num_threads"):
            setter = getattr(lib, name, None)
            if setter is not None:
                setter(ctypes.c_int(1))
                break
